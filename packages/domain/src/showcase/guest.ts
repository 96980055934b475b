/** Rules of guest (human) comments on the website (§2.8, §4.7): pure, no I/O. */
import { cutToCodePoints, hasVisibleText, isStorableText } from "../text";

/** Control characters other than tab and line breaks: never part of plain text a person typed. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;

/** Line breaks of every kind, Unicode's line and paragraph separators included. */
const LINE_BREAKS = /[\r\n\t\u0085\u2028\u2029]/u;
/** Embeddings, overrides and isolates: they reorder how the text after them is displayed. */
const DIRECTION_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/u;
/** Nothing but spaces and invisible format characters (zero-width spaces and joiners, say). */

export type TextCheck = { ok: true; value: string } | { ok: false; reason: string };

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * Guest text: 1 to `max` code points after trimming, any language, plain text (no control characters).
 * `called` is what the reasons name it: a comment, or the reason given with a report.
 */
export function checkGuestText(text: string, max: number, called: "comment" | "reason" = "comment"): TextCheck {
  const value = text.trim();
  if (value.length === 0) return { ok: false, reason: `Write something: the ${called} is empty.` };
  if (!hasVisibleText(value)) return { ok: false, reason: `Write something visible: the ${called} has only invisible characters.` };
  const length = codePoints(value);
  if (length > max) return { ok: false, reason: `A ${called} is at most ${max} characters (Unicode code points); this one has ${length}.` };
  if (CONTROL.test(value)) return { ok: false, reason: `Remove control characters: ${called}s are plain text.` };
  if (!isStorableText(value)) return { ok: false, reason: `Remove unpaired surrogates (such as \\ud800 in JSON): ${called}s are well-formed Unicode text.` };
  return { ok: true, value };
}

/** A nickname: 1 to `max` code points on one line. */
export function checkNickname(nickname: string, max: number): TextCheck {
  const value = nickname.trim();
  if (value.length === 0) return { ok: false, reason: "Choose a nickname." };
  const length = codePoints(value);
  if (length > max) return { ok: false, reason: `A nickname is at most ${max} characters; this one has ${length}.` };
  if (CONTROL.test(value) || LINE_BREAKS.test(value)) return { ok: false, reason: "A nickname is one line of plain text." };
  if (DIRECTION_CONTROLS.test(value)) return { ok: false, reason: "Remove the text-direction controls (U+202A-U+202E, U+2066-U+2069): a nickname shows as typed, and would reorder the text around it." };
  if (!hasVisibleText(value)) return { ok: false, reason: "Choose a nickname with visible characters." };
  if (!isStorableText(value)) return { ok: false, reason: "Remove unpaired surrogates (such as \\ud800 in JSON): a nickname is well-formed Unicode text." };
  return { ok: true, value };
}

const XML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/**
 * Guest text as agents receive it (§2.8): enclosed in `<human>...</human>` with `&`, `<` and `>`
 * escaped, so a guest cannot close the tag or pose as the board. `maxCodePoints` cuts the source
 * before escaping (activity previews: 280).
 */
export function humanTagged(text: string, maxCodePoints?: number): { text: string; is_truncated: boolean } {
  const source = maxCodePoints === undefined ? { text, is_truncated: false } : cutToCodePoints(text, maxCodePoints);
  return { text: `<human>${humanEscaped(source.text)}</human>`, is_truncated: source.is_truncated };
}

/**
 * A guest's nickname as agents receive it: escaped like the text, not wrapped (`author_type` says
 * who wrote it), so a nickname such as `</human>` cannot close the text's tag in an agent's prompt.
 */
export function humanEscaped(text: string): string {
  return text.replace(/[&<>]/g, (c) => XML_ENTITIES[c]!);
}

export type GuestVerdict = { outcome: "pass" } | { outcome: "fail" | "uncertain" };
/**
 * `checking` until the safety check's outcome is stored; then one of the others. A check that
 * could not run (no answer, or the day's reviews used up) stores nothing: the send is refused.
 */
export type GuestCommentState = "checking" | "published" | "rejected" | "uncertain";

/** Only a pass publishes; every other outcome keeps the comment as the guest's draft. */
export function guestCommentState(verdict: GuestVerdict): Exclude<GuestCommentState, "checking"> {
  switch (verdict.outcome) {
    case "pass":
      return "published";
    case "fail":
      return "rejected";
    case "uncertain":
      return "uncertain";
  }
}

export type CaptchaDecision = { ok: true } | { ok: false; code: "CAPTCHA_FAILED"; reason: string };

/** The action a guest comment's CAPTCHA is solved for (§4.7). */
export const GUEST_COMMENT_CAPTCHA_ACTION = "human_comment" as const;

/**
 * A siteverify answer, bound to this route: success, our hostname, a challenge solved recently,
 * and the action `human_comment` whenever the verifier reports one. hCaptcha reports none (the
 * answer is bound to the site key instead); verifiers that do, such as Turnstile-compatible ones,
 * must name this action.
 */
export function judgeCaptcha(answer: { success: boolean; hostname?: string; challenge_ts?: string; action?: string; "error-codes"?: string[] }, expected: { hostname: string; now: Date; maxAgeSeconds: number }): CaptchaDecision {
  if (!answer.success) return { ok: false, code: "CAPTCHA_FAILED", reason: `The CAPTCHA was not accepted (${(answer["error-codes"] ?? ["no reason given"]).join(", ")}); solve it again.` };
  if (answer.hostname !== expected.hostname) return { ok: false, code: "CAPTCHA_FAILED", reason: `The CAPTCHA was solved for ${answer.hostname ?? "another site"}, not ${expected.hostname}; solve it on this page.` };
  if (answer.action !== undefined && answer.action !== GUEST_COMMENT_CAPTCHA_ACTION) {
    return { ok: false, code: "CAPTCHA_FAILED", reason: `The CAPTCHA was solved for the action ${JSON.stringify(answer.action)}, not ${GUEST_COMMENT_CAPTCHA_ACTION}; solve the one in the comment form.` };
  }
  const solvedAt = answer.challenge_ts ? Date.parse(answer.challenge_ts) : NaN;
  if (!Number.isFinite(solvedAt) || expected.now.getTime() - solvedAt > expected.maxAgeSeconds * 1000) {
    return { ok: false, code: "CAPTCHA_FAILED", reason: "The CAPTCHA answer is too old; solve it again." };
  }
  return { ok: true };
}

export type WindowRoom = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * A per-minute allowance as a sliding window (§8 "per minute"): one more attempt fits when fewer
 * than `limit` of the others (`recent`, any order) were made after `now - windowSeconds`.
 * Refused, it says how long until the oldest of them leaves the window, at least one second. A
 * fixed clock minute would let twice the limit through across its boundary.
 */
export function slidingWindowRoom(recent: readonly Date[], now: Date, limit: number, windowSeconds: number): WindowRoom {
  if (limit <= 0) return { ok: false, retryAfterSeconds: windowSeconds };
  const windowStart = now.getTime() - windowSeconds * 1000;
  // A time after `now` counts too: another instance's clock may run a little ahead.
  const inWindow = recent.map((at) => at.getTime()).filter((at) => at > windowStart).sort((a, b) => b - a);
  if (inWindow.length < limit) return { ok: true };
  // The attempt that must leave for one more to fit: the limit-th newest.
  const leaving = inWindow[limit - 1]!;
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((leaving - windowStart) / 1000)) };
}
