import { verify } from "@node-rs/argon2";
import { afterFailedSignIn, BoardError, isUuid, signInWaitSeconds, type SignInSubject } from "@board/domain";
import { clearSignInThrottle, findOperatorById, findOperatorCredentials, findSignInThrottle, isOperatorSessionEnded, lockSignInSubject, recordEndedOperatorSession, recordOperatorSignIn, saveSignInThrottle } from "@board/db";
import type { OperatorActor, ServiceDeps } from "../deps";
import { hashOperatorPassword, MAX_EMAIL_LENGTH } from "./operators";

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

const wrongCredentials = () => new BoardError("UNAUTHORIZED", "The email or password is wrong, or the operator is disabled.");

type Failures = { failures: number; lastFailureAt: Date; blockedUntil: Date | null };

const sameFailures = (a: Failures | null, b: Failures) =>
  a !== null && a.failures === b.failures && a.lastFailureAt.getTime() === b.lastFailureAt.getTime() && (a.blockedUntil?.getTime() ?? null) === (b.blockedUntil?.getTime() ?? null);

/**
 * Checks console credentials. Failed attempts count per account and per network, with backoff:
 * while either waits, the attempt is refused with 429 SIGN_IN_THROTTLED before the password is
 * looked at. A wrong password, an unknown email and a disabled operator all answer the same 401.
 * Each attempt counts as a failure before its password is checked (under both subjects' locks),
 * and a success takes that back: a burst sent at once gets no more guesses than the same attempts
 * one after another, and no database connection waits on the password hash.
 */
export async function verifyOperatorCredentials(deps: ServiceDeps, attempt: SignInAttempt): Promise<OperatorActor> {
  const email = attempt.email.trim().toLowerCase();
  // No operator has a longer email (createOperator refuses one), and the throttle's key could not hold it.
  if (email.length > MAX_EMAIL_LENGTH) throw wrongCredentials();
  const subjects = throttleSubjects(email, attempt.network);
  const reservation = await deps.db.prisma.$transaction(async (tx) => {
    for (const subject of subjects) await lockSignInSubject(tx, subject.key);
    const before = await Promise.all(subjects.map((s) => findSignInThrottle(tx, s.key)));
    const wait = Math.max(...before.map((throttle) => signInWaitSeconds(throttle, attempt.now)));
    if (wait > 0) return { wait, before, counted: [] };
    const counted = subjects.map((subject, i) => afterFailedSignIn(subject.kind, before[i] ?? null, attempt.now));
    for (const [i, subject] of subjects.entries()) await saveSignInThrottle(tx, subject.key, counted[i]!);
    return { wait: 0, before, counted };
  });
  if (reservation.wait > 0) {
    throw new BoardError("SIGN_IN_THROTTLED", `Too many failed sign-ins; try again in ${reservation.wait} seconds.`, { retry_after_seconds: reservation.wait }, reservation.wait);
  }
  const operator = email.length > 0 ? await findOperatorCredentials(deps.db.prisma, email) : null;
  decoyHash ??= hashOperatorPassword("decoy password that matches nothing");
  const passwordMatches = await verify(operator?.passwordHash ?? (await decoyHash), attempt.password).catch(() => false);
  if (!operator || !passwordMatches || operator.disabledAt) throw wrongCredentials();
  await deps.db.prisma.$transaction(async (tx) => {
    for (const subject of subjects) await lockSignInSubject(tx, subject.key);
    await clearSignInThrottle(tx, subjects[0]!.key);
    // The network's count goes back to what it was, unless other attempts have counted since.
    const network = subjects[1]!;
    if (sameFailures(await findSignInThrottle(tx, network.key), reservation.counted[1]!)) {
      const previous = reservation.before[1];
      if (previous) await saveSignInThrottle(tx, network.key, previous);
      else await clearSignInThrottle(tx, network.key);
    }
    await recordOperatorSignIn(tx, operator.id, attempt.now);
  });
  return { kind: "operator", operatorId: operator.id, role: operator.role, sessionVersion: operator.sessionVersion };
}

export interface ConsoleSessionClaims {
  operatorId: string;
  sessionVersion: number;
  /** Random per sign-in (the session token's own id). */
  sid: string;
}

/**
 * The operator behind a console session, read on every request: null when the operator was
 * disabled or its session version moved (password changed, disabled), or when this session was
 * signed out, which ends the session.
 */
export async function loadOperatorSession(deps: ServiceDeps, session: ConsoleSessionClaims): Promise<OperatorActor | null> {
  // A session token can carry anything; an id that is not a uuid is simply no operator.
  if (!isUuid(session.operatorId) || !Number.isInteger(session.sessionVersion) || typeof session.sid !== "string" || session.sid === "") return null;
  const [operator, ended] = await Promise.all([findOperatorById(deps.db.prisma, session.operatorId), isOperatorSessionEnded(deps.db.prisma, session.sid)]);
  if (!operator || ended || operator.disabledAt || operator.sessionVersion !== session.sessionVersion) return null;
  return { kind: "operator", operatorId: operator.id, role: operator.role, sessionVersion: operator.sessionVersion };
}

/**
 * Signing out: the session's token is refused from now on, wherever a copy of it is kept (the
 * browser only drops its cookie). Remembered until the token would have expired anyway.
 */
export async function endOperatorSession(deps: ServiceDeps, session: { operatorId: string; sid: string; expiresAt: Date; now: Date }): Promise<void> {
  if (!isUuid(session.operatorId) || session.sid === "" || session.expiresAt <= session.now) return;
  if (!(await findOperatorById(deps.db.prisma, session.operatorId))) return;
  await recordEndedOperatorSession(deps.db.prisma, { sid: session.sid, operatorId: session.operatorId, endedAt: session.now, expiresAt: session.expiresAt });
}
