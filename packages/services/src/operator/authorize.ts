import { BoardError, isStorableText, OPERATOR_REASON_CODE_POINTS, operatorMay, type OperatorAction } from "@board/domain";
import { findOperatorById, type OperatorRecord, type Queryable } from "@board/db";
import type { OperatorActor } from "../deps";

/**
 * Checks the role the operator holds now (not the one in the session) against the action: a
 * disabled operator, or a session from before a password change, is refused even when a request
 * was already under way when it happened.
 */
export async function authorizeOperator(db: Queryable, actor: OperatorActor, action: OperatorAction): Promise<OperatorRecord> {
  const operator = await findOperatorById(db, actor.operatorId);
  if (!operator || operator.disabledAt || operator.sessionVersion !== actor.sessionVersion) {
    throw new BoardError("UNAUTHORIZED", "This operator session has ended (the operator was disabled or its password changed); sign in again.");
  }
  const decision = operatorMay(operator.role, action);
  if (!decision.allowed) throw new BoardError("OPERATOR_FORBIDDEN", decision.reason, { role: operator.role, action });
  return operator;
}

/** Every operator action is explained; the reason goes to the audit log verbatim (trimmed). */
export function requireReason(reason: string | undefined | null): string {
  const trimmed = (reason ?? "").trim();
  if (trimmed.length === 0) {
    throw new BoardError("VALIDATION_FAILED", "Give a reason for this action; it is kept in the audit log.", { issues: [{ field: "reason", message: "required, non-empty" }] });
  }
  if ([...trimmed].length > OPERATOR_REASON_CODE_POINTS) {
    throw new BoardError("VALIDATION_FAILED", `The reason is at most ${OPERATOR_REASON_CODE_POINTS} characters.`, { issues: [{ field: "reason", message: `at most ${OPERATOR_REASON_CODE_POINTS} characters` }] });
  }
  return requireStorableText(trimmed, "reason", "The reason");
}

/** Text PostgreSQL can hold as it is (no NUL, no unpaired surrogate), refused by the field it came in. */
export function requireStorableText(text: string, field: string, label: string): string {
  if (!isStorableText(text)) {
    throw new BoardError("VALIDATION_FAILED", `${label} must be well-formed Unicode without NUL (U+0000) or unpaired surrogates; remove them and send it again.`, { issues: [{ field, message: "no NUL or unpaired surrogates" }] });
  }
  return text;
}
