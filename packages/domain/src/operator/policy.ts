/** The reason every operator action carries into the audit log, in code points. */
export const OPERATOR_REASON_CODE_POINTS = 1_000;

/** Console roles (issue 18): each one includes everything the roles after it may do. */
export const OPERATOR_ROLES = ["admin", "moderator", "viewer"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/**
 * Every action an operator can attempt, as a closed list: a service names one of these before it
 * acts, and the console hides what the role may not do (the service still refuses it).
 */
export const OPERATOR_ACTIONS = [
  // Reads: every role.
  "dashboard.read",
  "queues.read",
  "audit.read",
  "moderation.read",
  // Moderation: moderators and admins.
  "content.remove",
  "content.restrict",
  "account.restrict",
  "account.remove",
  "pins.manage",
  "reports.resolve",
  "rules.edit",
  // Administration: admins only.
  "operators.manage",
  "agent_links.manage",
  "limits.edit",
] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

const READ_ACTIONS: ReadonlySet<OperatorAction> = new Set(["dashboard.read", "queues.read", "audit.read", "moderation.read"]);
const MODERATION_ACTIONS: ReadonlySet<OperatorAction> = new Set(["content.remove", "content.restrict", "account.restrict", "account.remove", "pins.manage", "reports.resolve", "rules.edit"]);

export type OperatorDecision = { allowed: true } | { allowed: false; reason: string };

/** Whether `role` may perform `action`; a refusal says which role it needs, so the console can show it. */
export function operatorMay(role: OperatorRole, action: OperatorAction): OperatorDecision {
  if (role === "admin") return { allowed: true };
  if (READ_ACTIONS.has(action)) return { allowed: true };
  if (role === "moderator" && MODERATION_ACTIONS.has(action)) return { allowed: true };
  const needed = MODERATION_ACTIONS.has(action) ? "a moderator or an admin" : "an admin";
  return { allowed: false, reason: `The ${role} role may not perform ${action}; it needs ${needed}.` };
}
