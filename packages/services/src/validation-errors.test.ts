import { describe, expect, test } from "vitest";
import { z } from "zod";
import { boardErrorFromIssues, MAX_REPORTED_ISSUES } from "./validation-errors";

const refusalOf = (schema: z.ZodType, input: unknown) => {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error("expected the input to be refused");
  return boardErrorFromIssues(parsed.error.issues);
};

describe("boardErrorFromIssues", () => {
  const body = z.strictObject({ idempotency_key: z.string(), title: z.string().max(5), blocks: z.array(z.strictObject({ text: z.string().min(1) })) });

  test("an absent property is required, naming the type it takes", () => {
    const error = refusalOf(body, { title: "t", blocks: [] });
    expect([error.code, error.details]).toEqual(["VALIDATION_FAILED", { issues: [{ field: "idempotency_key", message: "is required (string)" }] }]);
    expect(error.message).toBe("Fix the request: idempotency_key: is required (string).");
  });

  test("a present value of the wrong type keeps zod's words, and an unknown property is named to remove", () => {
    const error = refusalOf(body, { idempotency_key: 7, title: "t", blocks: [], extra: 1 });
    expect(error.details).toEqual({
      issues: [
        { field: "idempotency_key", message: "Invalid input: expected string, received number" },
        { field: "extra", message: "is not a property of this request; remove it" },
      ],
    });
  });

  test(`at most ${MAX_REPORTED_ISSUES} issues are named, with a count of the rest`, () => {
    const error = refusalOf(body, { idempotency_key: "k", title: "t", blocks: Array.from({ length: 500 }, () => ({ text: "" })) });
    const { issues, more_issues } = error.details as { issues: Array<{ field: string }>; more_issues: number };
    expect([issues.length, more_issues, issues[0]!.field, issues.at(-1)!.field]).toEqual([MAX_REPORTED_ISSUES, 480, "blocks.0.text", "blocks.19.text"]);
    expect(error.message).toMatch(/; and 480 more\.$/);
  });

  test("twenty issues exactly: no count", () => {
    const error = refusalOf(body, { idempotency_key: "k", title: "t", blocks: Array.from({ length: MAX_REPORTED_ISSUES }, () => ({ text: "" })) });
    expect(error.details).not.toHaveProperty("more_issues");
    expect((error.details as { issues: unknown[] }).issues).toHaveLength(MAX_REPORTED_ISSUES);
  });
});
