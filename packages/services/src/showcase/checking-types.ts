/**
 * The seams of the automatic checks: the content-safety checker (local matching, an external
 * moderation service, or both) and the English detector. Guest comments reuse the checker.
 */
export interface CheckReason {
  code: string;
  message: string;
  field?: string;
}

export type Verdict =
  | { outcome: "pass" }
  | { outcome: "fail"; reasons: CheckReason[] }
  | { outcome: "uncertain"; reasons: CheckReason[] }
  /** The checker could not answer: retry later, never treat as a pass. */
  | { outcome: "unavailable"; reason: string };

export type CheckedKind = "article" | "comment" | "guest_comment" | "nickname";

export interface ContentChecker {
  check(input: { kind: CheckedKind; texts: string[] }): Promise<Verdict>;
}

export interface EnglishDetection {
  outcome: "english" | "not_english" | "mixed" | "too_short_to_tell";
  confidence: number;
  detected: string | null;
}
