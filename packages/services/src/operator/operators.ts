import { randomBytes } from "node:crypto";
import { hash } from "@node-rs/argon2";
import { BoardError, OPERATOR_ROLES, unixSeconds, type OperatorRole } from "@board/domain";
import {
  countOperators,
  findOperatorByEmail,
  findOperatorById,
  insertOperator,
  isUniqueViolation,
  listOperators,
  lockForTransaction,
  lockOperator,
  markOperatorDisabled,
  replaceOperatorPassword,
  type OperatorRecord,
  type Queryable,
  type Tx,
} from "@board/db";
import type { OperatorActor, ServiceDeps, SystemActor } from "../deps";
import { recordOperatorAction } from "./audit";
import { authorizeOperator, requireReason } from "./authorize";

export const OPERATOR_PASSWORD_MIN_LENGTH = 12;
export const OPERATOR_PASSWORD_MAX_LENGTH = 256;
export const MAX_EMAIL_LENGTH = 254;

/** Who may manage operators: an admin in the console, or the command line (which holds the database). */
export type OperatorManager = OperatorActor | SystemActor;

export function presentOperator(operator: OperatorRecord) {
  return {
    id: operator.id,
    email: operator.email,
    role: operator.role,
    disabled_at: operator.disabledAt ? unixSeconds(operator.disabledAt) : null,
    created_at: unixSeconds(operator.createdAt),
    last_sign_in_at: operator.lastSignInAt ? unixSeconds(operator.lastSignInAt) : null,
  };
}

function invalid(field: string, message: string): BoardError {
  return new BoardError("VALIDATION_FAILED", `${field}: ${message}`, { issues: [{ field, message }] });
}

export function normalizeOperatorEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (trimmed.length > MAX_EMAIL_LENGTH || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) throw invalid("email", "an email address such as ops@example.org");
  return trimmed;
}

function checkRole(role: string): OperatorRole {
  if (!(OPERATOR_ROLES as readonly string[]).includes(role)) throw invalid("role", `one of ${OPERATOR_ROLES.join(", ")}`);
  return role as OperatorRole;
}

function checkPassword(password: string): string {
  const length = [...password].length;
  if (length < OPERATOR_PASSWORD_MIN_LENGTH || length > OPERATOR_PASSWORD_MAX_LENGTH) {
    throw invalid("password", `${OPERATOR_PASSWORD_MIN_LENGTH}-${OPERATOR_PASSWORD_MAX_LENGTH} characters (leave it out to have one generated)`);
  }
  return password;
}

/** 144 random bits, shown once to whoever created the operator. */
export function generateOperatorPassword(): string {
  return randomBytes(18).toString("base64url");
}

/** argon2id with the library's defaults (m = 19 MiB, t = 2, p = 1: OWASP's recommended minimum). */
export function hashOperatorPassword(password: string): Promise<string> {
  return hash(password);
}

async function managerMay(tx: Queryable, actor: OperatorManager): Promise<void> {
  if (actor.kind === "operator") await authorizeOperator(tx, actor, "operators.manage");
}

async function loadTarget(tx: Tx, ref: OperatorRef): Promise<OperatorRecord> {
  const found = "operatorId" in ref ? await findOperatorById(tx, ref.operatorId) : await findOperatorByEmail(tx, normalizeOperatorEmail(ref.email));
  if (!found) throw new BoardError("NOT_FOUND", `No operator ${"operatorId" in ref ? ref.operatorId : ref.email}; list them in the console or create one with pnpm operator:create.`);
  await lockOperator(tx, found.id);
  return (await findOperatorById(tx, found.id))!;
}

export type OperatorRef = { operatorId: string } | { email: string };

export interface CreateOperatorInput {
  email: string;
  role: string;
  /** Generated (and returned once) when absent. */
  password?: string;
  reason?: string;
  requestId?: string | null;
}

/**
 * Creates an operator. Returns the generated password (once) when none was given; the password
 * itself is never stored or logged, only its argon2id hash.
 */
export async function createOperator(deps: ServiceDeps, actor: OperatorManager, input: CreateOperatorInput) {
  // The role first (checked again in the transaction), and before any password is hashed.
  await managerMay(deps.db.prisma, actor);
  const email = normalizeOperatorEmail(input.email);
  const role = checkRole(input.role);
  const generatedPassword = input.password === undefined ? generateOperatorPassword() : null;
  const passwordHash = await hashOperatorPassword(checkPassword(input.password ?? generatedPassword!));
  const reason = requireReason(input.reason ?? (actor.kind === "system" ? `created by ${actor.name}` : ""));
  try {
    const operator = await deps.db.prisma.$transaction(async (tx) => {
      await managerMay(tx, actor);
      const now = deps.clock();
      const created = await insertOperator(tx, { email, passwordHash, role, createdAt: now });
      await recordOperatorAction(tx, actor, { action: "operator.create", target: { kind: "operator", id: created.id }, reason, before: null, after: { email, role }, requestId: input.requestId, at: now });
      return created;
    });
    return { operator: presentOperator(operator), generated_password: generatedPassword };
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new BoardError("OPERATOR_EXISTS", `An operator with the email ${email} exists already; use pnpm operator:reset-password or operator:disable (a disabled operator stays disabled: create one with another email instead).`, { email });
    }
    throw error;
  }
}

export interface ResetOperatorPasswordInput {
  operator: OperatorRef;
  password?: string;
  reason?: string;
  requestId?: string | null;
}

/** Sets a new password and ends every session of the operator (its session version moves). */
export async function resetOperatorPassword(deps: ServiceDeps, actor: OperatorManager, input: ResetOperatorPasswordInput) {
  await managerMay(deps.db.prisma, actor);
  const generatedPassword = input.password === undefined ? generateOperatorPassword() : null;
  const passwordHash = await hashOperatorPassword(checkPassword(input.password ?? generatedPassword!));
  const reason = requireReason(input.reason ?? (actor.kind === "system" ? `password reset by ${actor.name}` : ""));
  const operator = await deps.db.prisma.$transaction(async (tx) => {
    await managerMay(tx, actor);
    const target = await loadTarget(tx, input.operator);
    const updated = await replaceOperatorPassword(tx, target.id, passwordHash);
    await recordOperatorAction(tx, actor, {
      action: "operator.reset_password",
      target: { kind: "operator", id: target.id },
      reason,
      before: { session_version: target.sessionVersion },
      after: { session_version: updated.sessionVersion },
      requestId: input.requestId,
      at: deps.clock(),
    });
    return updated;
  });
  return { operator: presentOperator(operator), generated_password: generatedPassword };
}

export interface DisableOperatorInput {
  operator: OperatorRef;
  reason?: string;
  requestId?: string | null;
}

/**
 * Disables an operator: sign-in refused and every session ended at once. Idempotent: disabling a
 * disabled operator changes nothing and writes no second entry. The last enabled admin cannot be
 * disabled from the console (the command line can, since it can also create a new one).
 */
export async function disableOperator(deps: ServiceDeps, actor: OperatorManager, input: DisableOperatorInput) {
  await managerMay(deps.db.prisma, actor);
  const reason = requireReason(input.reason ?? (actor.kind === "system" ? `disabled by ${actor.name}` : ""));
  return deps.db.prisma.$transaction(async (tx) => {
    await managerMay(tx, actor);
    await lockForTransaction(tx, "operators");
    const target = await loadTarget(tx, input.operator);
    if (target.disabledAt) return { operator: presentOperator(target), changed: false };
    if (actor.kind === "operator" && target.role === "admin") {
      const enabledAdmins = (await listOperators(tx)).filter((o) => o.role === "admin" && !o.disabledAt);
      if (enabledAdmins.length <= 1) throw new BoardError("OPERATOR_FORBIDDEN", "This is the last enabled admin; create another admin before disabling it.", { role: actor.role, action: "operators.manage" });
    }
    const now = deps.clock();
    const updated = await markOperatorDisabled(tx, target.id, now);
    await recordOperatorAction(tx, actor, {
      action: "operator.disable",
      target: { kind: "operator", id: target.id },
      reason,
      before: { disabled: false, session_version: target.sessionVersion },
      after: { disabled: true, session_version: updated.sessionVersion },
      requestId: input.requestId,
      at: now,
    });
    return { operator: presentOperator(updated), changed: true };
  });
}

/** The console lists operators for admins. */
export async function listOperatorAccounts(deps: ServiceDeps, actor: OperatorActor) {
  await authorizeOperator(deps.db.prisma, actor, "operators.manage");
  return { operators: (await listOperators(deps.db.prisma)).map(presentOperator) };
}

/** Whether any operator exists: until one does, the console names the command that creates it. */
export async function operatorsExist(deps: ServiceDeps): Promise<boolean> {
  return (await countOperators(deps.db.prisma)) > 0;
}

/**
 * `npm start` with OPERATOR_BOOTSTRAP_EMAIL and OPERATOR_BOOTSTRAP_PASSWORD: creates the first
 * admin when no operator exists, and does nothing once any does (the variables can stay set).
 */
export async function bootstrapFirstAdmin(deps: ServiceDeps, input: { email: string; password: string }): Promise<{ created: boolean }> {
  const email = normalizeOperatorEmail(input.email);
  const passwordHash = await hashOperatorPassword(checkPassword(input.password));
  const actor: SystemActor = { kind: "system", name: "bootstrap" };
  return deps.db.prisma.$transaction(async (tx) => {
    await lockForTransaction(tx, "operators");
    if ((await countOperators(tx)) > 0) return { created: false };
    const now = deps.clock();
    const created = await insertOperator(tx, { email, passwordHash, role: "admin", createdAt: now });
    await recordOperatorAction(tx, actor, { action: "operator.create", target: { kind: "operator", id: created.id }, reason: "first admin from OPERATOR_BOOTSTRAP_EMAIL", before: null, after: { email, role: "admin" }, at: now });
    return { created: true };
  });
}
