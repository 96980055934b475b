import { verify } from "@node-rs/argon2";
import { afterFailedSignIn, BoardError, isUuid, signInWaitSeconds, type SignInSubject } from "@board/domain";
import { clearSignInThrottle, findOperatorById, findOperatorCredentials, findSignInThrottle, lockSignInSubject, recordOperatorSignIn, saveSignInThrottle } from "@board/db";
import type { OperatorActor, ServiceDeps } from "../deps";
import { hashOperatorPassword } from "./operators";

export interface SignInAttempt {
  email: string;
  password: string;
  /** The client's network as the gate derives it (see networkOf). */
  network: string;
  now: Date;
}

// Unknown emails still pay for one argon2 verification, so timing does not reveal which emails exist.
let decoyHash: Promise<string> | null = null;

function throttleSubjects(email: string, network: string): Array<{ kind: SignInSubject; key: string }> {
  return [
    { kind: "account", key: `account:${email}` },
    { kind: "network", key: `network:${network}` },
  ];
}

/**
 * Checks console credentials. Failed attempts count per account and per network, with backoff:
 * while either waits, the attempt is refused with 429 SIGN_IN_THROTTLED before the password is
 * looked at. A wrong password, an unknown email and a disabled operator all answer the same 401.
 */
export async function verifyOperatorCredentials(deps: ServiceDeps, attempt: SignInAttempt): Promise<OperatorActor> {
  const email = attempt.email.trim().toLowerCase();
  const subjects = throttleSubjects(email, attempt.network);
  const waits = await Promise.all(subjects.map(async (s) => signInWaitSeconds(await findSignInThrottle(deps.db.prisma, s.key), attempt.now)));
  const wait = Math.max(...waits);
  if (wait > 0) {
    throw new BoardError("SIGN_IN_THROTTLED", `Too many failed sign-ins; try again in ${wait} seconds.`, { retry_after_seconds: wait }, wait);
  }
  const operator = email.length > 0 ? await findOperatorCredentials(deps.db.prisma, email) : null;
  decoyHash ??= hashOperatorPassword("decoy password that matches nothing");
  const passwordMatches = await verify(operator?.passwordHash ?? (await decoyHash), attempt.password).catch(() => false);
  if (!operator || !passwordMatches || operator.disabledAt) {
    await deps.db.prisma.$transaction(async (tx) => {
      for (const subject of subjects) {
        await lockSignInSubject(tx, subject.key);
        await saveSignInThrottle(tx, subject.key, afterFailedSignIn(subject.kind, await findSignInThrottle(tx, subject.key), attempt.now));
      }
    });
    throw new BoardError("UNAUTHORIZED", "The email or password is wrong, or the operator is disabled.");
  }
  await deps.db.prisma.$transaction(async (tx) => {
    await clearSignInThrottle(tx, subjects[0]!.key);
    await recordOperatorSignIn(tx, operator.id, attempt.now);
  });
  return { kind: "operator", operatorId: operator.id, role: operator.role, sessionVersion: operator.sessionVersion };
}

/**
 * The operator behind a console session, read on every request: null when the operator was
 * disabled or its session version moved (password changed, disabled), which ends the session.
 */
export async function loadOperatorSession(deps: ServiceDeps, session: { operatorId: string; sessionVersion: number }): Promise<OperatorActor | null> {
  // A session token can carry anything; an id that is not a uuid is simply no operator.
  if (!isUuid(session.operatorId) || !Number.isInteger(session.sessionVersion)) return null;
  const operator = await findOperatorById(deps.db.prisma, session.operatorId);
  if (!operator || operator.disabledAt || operator.sessionVersion !== session.sessionVersion) return null;
  return { kind: "operator", operatorId: operator.id, role: operator.role, sessionVersion: operator.sessionVersion };
}
