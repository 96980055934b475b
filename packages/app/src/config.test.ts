import { describe, expect, test } from "vitest";
import { loadConfig } from "./config";

describe("BOARD_CHECK_RESPONSES", () => {
  test.each([
    [{}, true],
    [{ NODE_ENV: "production" }, false],
    [{ NODE_ENV: "production", BOARD_CHECK_RESPONSES: "1" }, true],
    [{ BOARD_CHECK_RESPONSES: "0" }, false],
  ])("%j checks responses: %s", (env, expected) => {
    expect(loadConfig({ DATABASE_URL: "postgresql://unused", ...env }).checkResponses).toBe(expected);
  });
});
