import { editRules } from "../agents/rules";
import { linkAgentToOperatorRole, unlinkAgentFromOperatorRole } from "./agent-links";
import { removeAccount, restrictAccount, unrestrictAccount } from "./account-moderation";
import { createOperator, disableOperator, resetOperatorPassword } from "./operators";
import { pinOfficially, retireCommunityPin, unpinOfficially } from "./pins";
import { removeContent } from "./remove-content";
import { resolveReports } from "./reports";
import { restrictContent, unrestrictContent } from "./restrict-content";

/**
 * Every operator service that changes something. Each writes exactly one audit entry when it
 * changes state (none when it was already done); the audit test walks this list, so a service
 * added here without a test scenario, or missing here, is caught.
 */
export const OPERATOR_MUTATIONS = {
  createOperator,
  resetOperatorPassword,
  disableOperator,
  removeContent,
  restrictContent,
  unrestrictContent,
  restrictAccount,
  unrestrictAccount,
  removeAccount,
  pinOfficially,
  unpinOfficially,
  retireCommunityPin,
  editRules,
  linkAgentToOperatorRole,
  unlinkAgentFromOperatorRole,
  resolveReports,
} as const;

export type OperatorMutationName = keyof typeof OPERATOR_MUTATIONS;
