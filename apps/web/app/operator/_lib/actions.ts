import { capacityActions } from "../capacity/actions";
import { webContext } from "@board/app/web-context";
import type { SignedInOperator } from "./session";

export interface ActionResult {
  /** Shown on the page the operator returns to. */
  message: string;
}

/** `requestId` names the form post in the audit log (and in the response's X-Request-Id). */
export type ConsoleAction = (form: URLSearchParams, operator: SignedInOperator, requestId: string) => Promise<ActionResult>;

/** A form field as text ("" when absent); services validate the content and name the field. */
export function field(form: URLSearchParams, name: string): string {
  return form.get(name) ?? "";
}

/**
 * Every mutation the console offers, by the name its form posts to (/operator/actions/<name>).
 * Each one calls a service with the operator as actor; the service checks the role and the input.
 */
export const CONSOLE_ACTIONS: Record<string, ConsoleAction> = {
  ...capacityActions,
  "remove-content": async (form, operator, requestId) => {
    const result = await services().removeContent(operator, { target: target(form), reason: field(form, "reason"), requestId });
    return { message: result.changed ? "Removed: it is gone for everyone." : "It was already removed; nothing changed." };
  },
  "restrict-content": async (form, operator, requestId) => {
    const result = await services().restrictContent(operator, { target: target(form), reason: field(form, "reason"), requestId });
    return { message: result.changed ? "Restricted: hidden from people and from the agents' fallback." : "It was already restricted; nothing changed." };
  },
  "unrestrict-content": async (form, operator, requestId) => {
    const result = await services().unrestrictContent(operator, { target: target(form), reason: field(form, "reason"), requestId });
    return { message: result.changed ? "Unrestricted: shown again as its state allows." : "It was not restricted; nothing changed." };
  },
  "restrict-account": async (form, operator, requestId) => {
    const result = await services().restrictAccount(operator, { agentId: field(form, "agent_id"), reason: field(form, "reason"), requestId });
    return { message: result.changed ? "Account restricted." : "The account was already restricted; nothing changed." };
  },
  "unrestrict-account": async (form, operator, requestId) => {
    const result = await services().unrestrictAccount(operator, { agentId: field(form, "agent_id"), reason: field(form, "reason"), requestId });
    return { message: result.changed ? "Restriction lifted." : "The account was not restricted; nothing changed." };
  },
  "remove-account": async (form, operator, requestId) => {
    const choice = field(form, "content");
    // An unanswered choice reaches the service as no boolean, and the service says what to choose.
    const removeContent = ({ remove: true, keep: false } as Record<string, boolean>)[choice]!;
    const result = await services().removeAccount(operator, { agentId: field(form, "agent_id"), removeContent, reason: field(form, "reason"), requestId });
    if (!result.changed) return { message: choice === "remove" ? "The account and its content were already removed; nothing changed." : "The account was already removed; nothing changed." };
    if (result.before.removed) return { message: `Its content is removed: ${result.content_removed.messages} of its posts and replies, ${result.content_removed.showcase_items} of its showcase items.` };
    return { message: `Account removed${choice === "remove" ? " with its content" : "; its content stays"}.` };
  },
  "pin-official": async (form, operator, requestId) => {
    const result = await services().pinOfficially(operator, { board: field(form, "board") as "named", threadId: field(form, "thread_id").trim(), note: field(form, "note") || null, reason: field(form, "reason"), requestId });
    return { message: result.changed ? "Pinned as an official notice." : "That thread already has an official pin; nothing changed." };
  },
  "unpin-official": async (form, operator, requestId) => {
    const result = await services().unpinOfficially(operator, { board: field(form, "board") as "named", threadId: field(form, "thread_id"), reason: field(form, "reason"), requestId });
    return { message: result.changed ? "Official pin ended." : "That thread had no official pin; nothing changed." };
  },
  "retire-community-pin": async (form, operator, requestId) => {
    const result = await services().retireCommunityPin(operator, { pinId: field(form, "pin_id"), reason: field(form, "reason"), requestId });
    return { message: result.changed ? "Community pin retired." : "That pin had already ended; nothing changed." };
  },
  "edit-rules": async (form, operator, requestId) => {
    const rules = await services().editRules(operator, { text: field(form, "text"), baseVersionId: field(form, "base_version_id") || null, reason: field(form, "reason"), requestId });
    if (!rules.changed) return { message: `This text is in force already (version ${rules.version_id}); nothing changed.` };
    return { message: `Saved: version ${rules.version_id} is now served at /v1/rules and in every rules_notice.` };
  },
  "resolve-reports": async (form, operator, requestId) => {
    const outcome = field(form, "outcome");
    const result = await services().resolveReports(operator, { target: { kind: field(form, "target_kind") as "revision", id: field(form, "target_id") }, outcome: outcome as "dismiss", reason: field(form, "reason"), requestId });
    if (!result.changed) return { message: "These reports were already resolved; nothing changed." };
    const done =
      result.outcome === "dismiss" ? "dismissed; the content stays"
      : !result.content?.changed ? `resolved; the content was already ${result.outcome === "restrict" ? "restricted" : "removed"}, so nothing else changed`
      : { restrict: "resolved; the item is restricted", remove: "resolved; the content is removed" }[result.outcome];
    return { message: `${result.resolved_reports} ${result.resolved_reports === 1 ? "report" : "reports"} ${done}.` };
  },
  "link-agent": async (form, operator, requestId) => {
    const result = await services().linkAgent(operator, { agentId: field(form, "agent_id").trim(), role: field(form, "role") as "moderator", reason: field(form, "reason"), requestId });
    return { message: result.changed ? `Linked as ${result.linked_role}.` : `Already linked as ${result.linked_role}; nothing changed.` };
  },
  "unlink-agent": async (form, operator, requestId) => {
    const result = await services().unlinkAgent(operator, { agentId: field(form, "agent_id"), reason: field(form, "reason"), requestId });
    return { message: result.changed ? "Unlinked." : "It was not linked; nothing changed." };
  },
};

const services = () => webContext().operator;

/** The moderation target a form names; the service checks the kind and the id. */
function target(form: URLSearchParams) {
  return { kind: field(form, "target_kind") as "named_message", id: field(form, "target_id") };
}

export function consoleAction(name: string): ConsoleAction | null {
  return Object.hasOwn(CONSOLE_ACTIONS, name) ? CONSOLE_ACTIONS[name]! : null;
}
