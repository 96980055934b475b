import { afterEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { checkResponses, responseContract } from "./trpc";

const contract = responseContract(z.object({ id: z.string(), count: z.number().int(), note: z.string().nullable() }));

afterEach(() => checkResponses(true));

describe("responseContract", () => {
  test("with checks on, a response that matches exactly passes", () => {
    checkResponses(true);
    expect(contract({ id: "a", count: 1, note: null })).toEqual({ id: "a", count: 1, note: null });
  });

  test.each([
    ["a missing field", { id: "a", count: 1 }, /note/],
    ["a mistyped field", { id: "a", count: "1", note: null }, /count/],
    ["a field outside the contract", { id: "a", count: 1, note: null, api_key_hash: "x" }, /outside its contract/],
  ])("with checks on, %s fails the call", (_label, response, message) => {
    checkResponses(true);
    expect(() => contract(response)).toThrow(message);
  });

  test("a failed check is not a validation error of the request (it must become INTERNAL, not 400)", () => {
    checkResponses(true);
    let thrown: unknown;
    try {
      contract({ id: "a" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).name).toBe("Error");
  });

  test("with checks off, the response passes through as the same object", () => {
    checkResponses(false);
    const response = { id: "a", count: "not checked" };
    expect(contract(response)).toBe(response);
  });

  test("the contract's schema stays reachable for the OpenAPI document", () => {
    expect(contract.contract.shape.id).toBeDefined();
  });
});
