import type { CheckReason, ContentChecker, Verdict } from "../checking-types";

export interface HttpCheckerOptions {
  url: string;
  token?: string | null;
  timeoutMs?: number;
}

function isReasons(value: unknown): value is CheckReason[] {
  return Array.isArray(value) && value.every((r) => typeof r === "object" && r !== null && typeof (r as CheckReason).code === "string" && typeof (r as CheckReason).message === "string");
}

/**
 * An external moderation service: POST {kind, texts} as JSON, answered with
 * {outcome: "pass" | "fail" | "uncertain", reasons?: [{code, message}]}. Anything else (timeout,
 * refused connection, an error status, malformed JSON) is "unavailable": retried, never a pass.
 */
export function httpContentChecker(options: HttpCheckerOptions): ContentChecker {
  const timeoutMs = options.timeoutMs ?? 5_000;
  return {
    async check(input): Promise<Verdict> {
      let response: Response;
      try {
        response = await fetch(options.url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json", ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
          body: JSON.stringify(input),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const cause = (error as { cause?: { code?: string }; name?: string }).cause?.code ?? (error as Error).name;
        return { outcome: "unavailable", reason: `The moderation service did not answer (${cause}).` };
      }
      if (!response.ok) return { outcome: "unavailable", reason: `The moderation service answered HTTP ${response.status}.` };
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        return { outcome: "unavailable", reason: "The moderation service answered malformed JSON." };
      }
      const { outcome, reasons } = (body ?? {}) as { outcome?: unknown; reasons?: unknown };
      if (outcome === "pass") return { outcome: "pass" };
      if ((outcome === "fail" || outcome === "uncertain") && (reasons === undefined || isReasons(reasons))) return { outcome, reasons: reasons ?? [{ code: "moderation", message: `The moderation service answered ${outcome}.` }] };
      return { outcome: "unavailable", reason: "The moderation service answered an unknown verdict." };
    },
  };
}

const SEVERITY = { fail: 3, unavailable: 2, uncertain: 1, pass: 0 } as const;

/** Every checker runs; the worst verdict wins (fail > unavailable > uncertain > pass), reasons merged. */
export function combineCheckers(checkers: readonly ContentChecker[]): ContentChecker {
  return {
    async check(input): Promise<Verdict> {
      const verdicts = await Promise.all(checkers.map((c) => c.check(input)));
      const worst = verdicts.reduce((a, b) => (SEVERITY[b.outcome] > SEVERITY[a.outcome] ? b : a), { outcome: "pass" } as Verdict);
      if (worst.outcome === "fail" || worst.outcome === "uncertain") {
        return { outcome: worst.outcome, reasons: verdicts.flatMap((v) => (v.outcome === worst.outcome ? v.reasons : [])) };
      }
      if (worst.outcome === "unavailable") return { outcome: "unavailable", reason: verdicts.flatMap((v) => (v.outcome === "unavailable" ? [v.reason] : [])).join("; ") };
      return worst;
    },
  };
}
