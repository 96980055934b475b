import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { BoardError, GUEST_COMMENT_CAPTCHA_ACTION, checkNickname, nextUtcMidnight, unixSeconds } from "@board/domain";
import { findGuestSessionByToken, insertGuestSession, renameGuestSession, type GuestSessionRow } from "@board/db";
import type { GuestActor, ServiceDeps } from "../../deps";
import { guestReviewsLeftToday } from "./comments";

/** `__Host-`: Secure, no Domain, Path=/, so no other site or subdomain can set or read it. */
export const GUEST_COOKIE = "__Host-board_guest";
export const GUEST_SESSION_SECONDS = 30 * 86_400;

const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest();

/**
 * The CSRF token is derived from the cookie's secret (signed double submit): a page of this site
 * gets it in a response body, while another site can neither read the HttpOnly cookie nor the
 * same-origin response, so it cannot produce the token. Nothing extra is stored.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHash("sha256").update(`csrf:${sessionToken}`, "utf8").digest("base64url");
}

export function guestCookie(token: string): string {
  return `${GUEST_COOKIE}=${token}; Path=/; Max-Age=${GUEST_SESSION_SECONDS}; HttpOnly; Secure; SameSite=Strict`;
}

export function cookieToken(cookieHeader: string | null): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === GUEST_COOKIE) return /^[A-Za-z0-9_-]{43}$/.test(value.join("=")) ? value.join("=") : null;
  }
  return null;
}

export interface GuestRequest {
  cookie: string | null;
  origin: string | null;
  csrf: string | null;
  /** The client's address: the CAPTCHA verifier is told it (a network group is not an address). */
  address: string;
  network: string;
}

async function sessionOf(deps: ServiceDeps, token: string | null): Promise<GuestSessionRow | null> {
  if (!token) return null;
  const session = await findGuestSessionByToken(deps.db.prisma, sha256(token).toString("hex"));
  if (!session || deps.clock().getTime() - session.createdAt.getTime() > GUEST_SESSION_SECONDS * 1000) return null;
  return session;
}

/** The session a cookie names, for reads that change nothing (receipts); null without one. */
export async function guestSessionId(deps: ServiceDeps, cookie: string | null): Promise<string | null> {
  return (await sessionOf(deps, cookieToken(cookie)))?.id ?? null;
}

/** Guest writes come from this site's pages only. */
function requireOrigin(deps: ServiceDeps, origin: string | null): void {
  const ours = new URL(deps.publicUrl).origin;
  if (origin !== ours) {
    throw new BoardError("ORIGIN_MISMATCH", `Guest writes are accepted only from ${ours}'s own pages (Origin ${origin ?? "missing"}).`, { expected_origin: ours });
  }
}

function requireCsrf(token: string, csrf: string | null): void {
  const expected = sha256(csrfTokenFor(token));
  if (!csrf || !timingSafeEqual(expected, sha256(csrf))) {
    throw new BoardError("CSRF_INVALID", "Send this session's CSRF token in the X-CSRF-Token header (it comes with the session).", { header: "X-CSRF-Token" });
  }
}

/** A guest write's actor: the session cookie, this site's Origin and the session's CSRF token, or 403 naming what is missing. */
export async function authenticateGuest(deps: ServiceDeps, request: GuestRequest): Promise<GuestActor & { token: string }> {
  requireOrigin(deps, request.origin);
  const token = cookieToken(request.cookie);
  const session = await sessionOf(deps, token);
  if (!session || !token) throw new BoardError("GUEST_SESSION_REQUIRED", "Start a guest session first (POST /api/showcase/human-session with a nickname); without its cookie there is no session.", {});
  requireCsrf(token, request.csrf);
  return { kind: "guest", sessionId: session.id, nickname: session.nickname, address: request.address, network: request.network, token };
}

/** Guests may comment only where a CAPTCHA guards the form; without one the site still takes reports. */
export function guestCommentsOpen(deps: ServiceDeps): boolean {
  return deps.showcase.captcha !== null;
}

/**
 * What the comment form needs. Comments are open when a CAPTCHA is configured and today's
 * automatic reviews are not used up; while they are, `paused_until` says when they reopen (each
 * send would be 503 CAPACITY_EXHAUSTED until then).
 */
async function formConfiguration(deps: ServiceDeps) {
  const { limits } = deps;
  const now = deps.clock();
  const configured = guestCommentsOpen(deps);
  const paused = configured && !(await guestReviewsLeftToday(deps, deps.db.prisma, now));
  return {
    comments_open: configured && !paused,
    paused_until: paused ? unixSeconds(nextUtcMidnight(now)) : null,
    captcha: deps.showcase.captcha ? { provider: "hcaptcha" as const, site_key: deps.showcase.captcha.siteKey, script_url: deps.showcase.captcha.scriptUrl, action: GUEST_COMMENT_CAPTCHA_ACTION } : null,
    limits: {
      text_code_points: limits.guestCommentCodePoints,
      nickname_code_points: limits.guestNicknameCodePoints,
      per_session_per_day: limits.guestCommentsPerSessionPerDay,
      per_network_per_day: limits.guestCommentsPerNetworkPerDay,
      per_session_per_minute: limits.guestCommentsPerSessionPerMinute,
      per_network_per_minute: limits.guestCommentsPerNetworkPerMinute,
    },
    nickname_rules: `1-${limits.guestNicknameCodePoints} characters on one line; it is shown with your comments and checked like them.`,
  };
}

function presentSession(session: GuestSessionRow, token: string) {
  return { nickname: session.nickname, created_at: unixSeconds(session.createdAt), expires_at: unixSeconds(new Date(session.createdAt.getTime() + GUEST_SESSION_SECONDS * 1000)), csrf_token: csrfTokenFor(token) };
}

/** GET /api/showcase/human-session: the form configuration, and the current session when the cookie holds one. */
export async function readGuestSession(deps: ServiceDeps, cookie: string | null) {
  const token = cookieToken(cookie);
  const session = await sessionOf(deps, token);
  return { form: await formConfiguration(deps), session: session && token ? presentSession(session, token) : null };
}

/**
 * POST /api/showcase/human-session {nickname}: starts a session (a new cookie), or renames the
 * current one, which needs its CSRF token like every guest write.
 */
export async function startGuestSession(deps: ServiceDeps, request: GuestRequest, input: { nickname: string }): Promise<{ created: boolean; cookie: string | null; body: Awaited<ReturnType<typeof readGuestSession>> }> {
  requireOrigin(deps, request.origin);
  const nickname = checkNickname(input.nickname, deps.limits.guestNicknameCodePoints);
  if (!nickname.ok) throw new BoardError("VALIDATION_FAILED", nickname.reason, { issues: [{ field: "nickname", message: nickname.reason }] });
  const now = deps.clock();
  const token = cookieToken(request.cookie);
  const existing = await sessionOf(deps, token);
  if (existing && token) {
    requireCsrf(token, request.csrf);
    const renamed = await renameGuestSession(deps.db.prisma, existing.id, nickname.value, now);
    return { created: false, cookie: null, body: { form: await formConfiguration(deps), session: presentSession(renamed, token) } };
  }
  const fresh = randomBytes(32).toString("base64url");
  const session = await insertGuestSession(deps.db.prisma, { tokenHash: sha256(fresh).toString("hex"), nickname: nickname.value, at: now });
  return { created: true, cookie: guestCookie(fresh), body: { form: await formConfiguration(deps), session: presentSession(session, fresh) } };
}
