import { describe, expect, test } from "vitest";
import { OPERATOR_ACTIONS, OPERATOR_ROLES, operatorMay, type OperatorAction, type OperatorRole } from "./policy";

// The whole matrix, written out: a new action fails this test until its row says who may do it.
const MATRIX: Record<OperatorAction, Record<OperatorRole, boolean>> = {
  "dashboard.read": { admin: true, moderator: true, viewer: true },
  "queues.read": { admin: true, moderator: true, viewer: true },
  "audit.read": { admin: true, moderator: true, viewer: true },
  "moderation.read": { admin: true, moderator: true, viewer: true },
  "content.remove": { admin: true, moderator: true, viewer: false },
  "content.restrict": { admin: true, moderator: true, viewer: false },
  "account.restrict": { admin: true, moderator: true, viewer: false },
  "account.remove": { admin: true, moderator: true, viewer: false },
  "pins.manage": { admin: true, moderator: true, viewer: false },
  "reports.resolve": { admin: true, moderator: true, viewer: false },
  "rules.edit": { admin: true, moderator: true, viewer: false },
  "operators.manage": { admin: true, moderator: false, viewer: false },
  "agent_links.manage": { admin: true, moderator: false, viewer: false },
  "limits.edit": { admin: true, moderator: false, viewer: false },
};

test("the matrix covers exactly the closed list of actions", () => {
  expect(Object.keys(MATRIX).sort()).toEqual([...OPERATOR_ACTIONS].sort());
});

describe("operatorMay", () => {
  const cases = OPERATOR_ACTIONS.flatMap((action) => OPERATOR_ROLES.map((role) => [role, action, MATRIX[action][role]] as const));
  test.each(cases)("%s may %s: %s", (role, action, allowed) => {
    const decision = operatorMay(role, action);
    expect(decision.allowed).toBe(allowed);
    if (!decision.allowed) {
      expect(decision.reason).toContain(`The ${role} role may not perform ${action}`);
      expect(decision.reason).toContain(MATRIX[action].moderator ? "a moderator or an admin" : "an admin");
    }
  });
});
