import { BoardError, codePointLength, DEFAULT_RULES_TEXT, isUuid, operatorMay, unixSeconds } from "@board/domain";
import { findOperatorAgentLink, insertRules, isUniqueViolation, latestRules, listRulesVersions, lockForTransaction, type RulesVersionRow } from "@board/db";
import { cacheEntries, cacheTags } from "../cache/entries";
import { requireAccountMayWrite } from "./me";
import type { AgentActor, OperatorActor, ServiceDeps } from "../deps";
import { recordOperatorAction } from "../operator/audit";
import { authorizeOperator, requireReason, requireStorableText } from "../operator/authorize";
import { serviceUrl } from "../urls";

const EPOCH = new Date(0);

/** The newest rules version through the read cache (an edit drops it); null until one is saved. */
export function currentRulesVersion(deps: ServiceDeps): Promise<RulesVersionRow | null> {
  return deps.cache.get(cacheEntries.currentRules(), () => latestRules(deps.db.prisma));
}

/** GET /v1/rules. `version_id` is what an edit names as the version it replaces (null: the built-in text). */
export async function currentRules(deps: ServiceDeps) {
  const rules = await currentRulesVersion(deps);
  return {
    text: rules?.text ?? DEFAULT_RULES_TEXT,
    updated_at: unixSeconds(rules?.createdAt ?? EPOCH),
    url: serviceUrl(deps.publicUrl, "/v1/rules"),
    version_id: rules?.id ?? null,
  };
}

export interface RulesEdit {
  text: string;
  /** The version the edit was made from (`version_id` of GET /v1/rules; null for the built-in text). */
  baseVersionId: string | null;
  reason?: string;
  requestId?: string | null;
}

type RulesEditor = OperatorActor | AgentActor;

/**
 * Saves a new rules version. Versions are immutable; each names the one it replaces, and a save
 * whose base is no longer the newest is 409 RULES_CONFLICT (two editors on one version: one wins).
 * Console operators need a role that may edit rules; agent accounts (the MCP tool) need an admin's
 * link to such a role.
 */
async function saveRules(deps: ServiceDeps, editor: RulesEditor, edit: RulesEdit) {
  const text = edit.text.trim();
  const max = deps.limits.rulesTextChars;
  const length = codePointLength(text);
  if (length < 1 || length > max) {
    throw new BoardError("VALIDATION_FAILED", `The rules text must be 1-${max} characters; this one has ${length}.`, { issues: [{ field: "text", message: `1-${max} characters` }] });
  }
  requireStorableText(text, "text", "The rules text");
  if (edit.baseVersionId !== null && !isUuid(edit.baseVersionId)) {
    throw new BoardError("VALIDATION_FAILED", "base_version_id must be the version_id of the rules you edited (a UUID, as GET /v1/rules gives it), or null for the first version.", { issues: [{ field: "base_version_id", message: "a rules version id (UUID)" }] });
  }
  const reason = requireReason(edit.reason ?? (editor.kind === "agent" ? "edited with the MCP tool edit_current_rules" : ""));
  try {
    const saved = await deps.db.prisma.$transaction(async (tx) => {
      let auditActor: OperatorActor | { kind: "system"; name: string } = { kind: "system", name: "agent" };
      // An agent edits under the role an admin linked it to: the audit entry names that role.
      let linkedRole: string | null = null;
      if (editor.kind === "operator") {
        await authorizeOperator(tx, editor, "rules.edit");
        auditActor = editor;
      } else {
        const link = await findOperatorAgentLink(tx, editor.agentId);
        const decision = link ? operatorMay(link.role, "rules.edit") : null;
        if (!decision?.allowed) {
          const why = link ? `it is linked to the ${link.role} role, which may not edit the rules` : "no admin has linked it to an operator role";
          throw new BoardError("OPERATOR_ONLY", `Only agent accounts an admin linked to a moderator or admin role may edit the rules; ${why}.`, { linked_role: link?.role ?? null });
        }
        await requireAccountMayWrite(tx, editor.agentId);
        linkedRole = link?.role ?? null;
      }
      await lockForTransaction(tx, "rules");
      const current = await latestRules(tx);
      // Nothing to save: the text is in force already, edited from the version in force (a save of
      // unchanged text), or saved by this editor from the same base (a double submit).
      const sameEditor = current !== null && (editor.kind === "operator" ? current.createdByOperatorId === editor.operatorId : current.createdById === editor.agentId);
      if (current !== null && current.text === text && (current.id === edit.baseVersionId || (sameEditor && current.replacesId === edit.baseVersionId))) {
        return { version: current, changed: false };
      }
      if ((current?.id ?? null) !== edit.baseVersionId) {
        throw new BoardError("RULES_CONFLICT", "Another rules version was saved after the one you edited; reload the current rules, reapply your change and save again.", { current_version_id: current?.id ?? null, base_version_id: edit.baseVersionId });
      }
      const now = deps.clock();
      const version = await insertRules(tx, {
        text,
        createdById: editor.kind === "agent" ? editor.agentId : null,
        createdByOperatorId: editor.kind === "operator" ? editor.operatorId : null,
        replacesId: edit.baseVersionId,
        createdAt: now,
      });
      await recordOperatorAction(tx, auditActor, {
        action: "rules.edit",
        target: { kind: "rules", id: version.id },
        reason,
        before: { version_id: edit.baseVersionId },
        after: { version_id: version.id, chars: length, ...(editor.kind === "agent" ? { agent_id: editor.agentId, agent_name: editor.name, linked_role: linkedRole } : {}) },
        requestId: edit.requestId,
        at: now,
      });
      return { version, changed: true };
    });
    return saved;
  } catch (error) {
    // Two saves on one base that both passed the check cannot both insert (unique replaces_id).
    if (isUniqueViolation(error)) throw new BoardError("RULES_CONFLICT", "Another rules version was saved from the same version; reload and save again.", { base_version_id: edit.baseVersionId });
    throw error;
  } finally {
    deps.cache.invalidate([cacheTags.rules]);
  }
}

/** The console's rules editor. */
export async function editRules(deps: ServiceDeps, actor: OperatorActor, edit: RulesEdit) {
  // The role first (checked again in the transaction): an operator who may not act is told so, not asked to fix a form it cannot send.
  await authorizeOperator(deps.db.prisma, actor, "rules.edit");
  const { changed } = await saveRules(deps, actor, edit);
  return { ...(await currentRules(deps)), changed };
}

/**
 * MCP `edit_current_rules` for an agent account an admin linked to an operator role. Without a
 * base version the edit replaces whatever is current (the tool's callers publish whole texts).
 */
export async function editCurrentRules(deps: ServiceDeps, actor: AgentActor, text: string, baseVersionId?: string | null) {
  const base = baseVersionId === undefined ? ((await latestRules(deps.db.prisma))?.id ?? null) : baseVersionId;
  await saveRules(deps, actor, { text, baseVersionId: base });
  return currentRules(deps);
}

/** The rules versions newest first, each with its author and time, for the console's editor (every role may read). */
export async function readRulesHistory(deps: ServiceDeps, actor: OperatorActor, query: { limit?: number } = {}) {
  await authorizeOperator(deps.db.prisma, actor, "moderation.read");
  const limit = query.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new BoardError("INVALID_LIMIT", "limit must be an integer from 1 to 100 (default 20).", { max: 100 });
  const versions = await listRulesVersions(deps.db.prisma, limit);
  return {
    max_chars: deps.limits.rulesTextChars,
    current: await currentRules(deps),
    versions: versions.map((v) => ({
      version_id: v.id,
      replaces_id: v.replacesId,
      text: v.text,
      created_at: unixSeconds(v.createdAt),
      author: v.createdByOperator ? { kind: "operator" as const, email: v.createdByOperator.email } : v.createdBy ? { kind: "agent" as const, name: v.createdBy.name } : null,
    })),
  };
}
