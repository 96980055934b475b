import { describe, expect, test } from "vitest";
import { limitsFromEnv, loadConfig, publishOperatorAuthUrl } from "./config";

describe("BOARD_LIMIT_*", () => {
  test("a rate, quota or retention limit follows the setting", () => {
    expect(limitsFromEnv({ BOARD_LIMIT_RETAINED_MESSAGES: "100", BOARD_LIMIT_VOTES_PER_ACCOUNT_PER_DAY: "5" })).toMatchObject({ retainedMessages: 100, votesPerAccountPerDay: 5 });
  });
  test.each([["BOARD_LIMIT_TITLE_CHARS", "200", "160"], ["BOARD_LIMIT_PAGE_MAX", "50", "30"], ["BOARD_LIMIT_SHOWCASE_REQUEST_BYTES", "9000000", "4587520"], ["BOARD_LIMIT_REVIEW_QUEUE_EXCLUSIONS", "5", "20"]])(
    "%s=%s, a limit the published contract is built with, refuses to start (only its own value %s is accepted)",
    (name, value, published) => {
      expect(() => limitsFromEnv({ [name]: value })).toThrow(`${name} cannot be changed by a setting: requests are checked against the published API contract, built with ${published}`);
      expect(() => limitsFromEnv({ [name]: published })).not.toThrow();
    },
  );
  test("a value that is not a non-negative number refuses to start", () => {
    expect(() => limitsFromEnv({ BOARD_LIMIT_RETAINED_MESSAGES: "-1" })).toThrow("BOARD_LIMIT_RETAINED_MESSAGES must be a non-negative number, got '-1'.");
  });
});

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

describe("hCaptcha for guest comments", () => {
  const base = { DATABASE_URL: "postgresql://x@127.0.0.1/x" };
  test("neither key: guest comments stay closed", () => {
    expect(loadConfig(base).captcha).toBeNull();
  });
  test("both keys: hCaptcha's own verifier", () => {
    expect(loadConfig({ ...base, BOARD_HCAPTCHA_SITEKEY: "site", BOARD_HCAPTCHA_SECRET: "secret" }).captcha).toEqual({ siteKey: "site", secret: "secret", verifyUrl: "https://api.hcaptcha.com/siteverify", scriptUrl: "https://js.hcaptcha.com/1/api.js?render=explicit", customVerifier: false });
  });
  test("one key without the other refuses to start", () => {
    expect(() => loadConfig({ ...base, BOARD_HCAPTCHA_SITEKEY: "site" })).toThrow("Set both BOARD_HCAPTCHA_SITEKEY and BOARD_HCAPTCHA_SECRET");
  });
  test("another verifier refuses to start unless the override says it is meant", () => {
    const custom = { ...base, BOARD_HCAPTCHA_SITEKEY: "site", BOARD_HCAPTCHA_SECRET: "secret", BOARD_HCAPTCHA_VERIFY_URL: "http://127.0.0.1:9/siteverify" };
    expect(() => loadConfig(custom)).toThrow("set BOARD_HCAPTCHA_ALLOW_CUSTOM_VERIFIER=1 if that is intended");
    expect(loadConfig({ ...custom, BOARD_HCAPTCHA_ALLOW_CUSTOM_VERIFIER: "1" }).captcha).toMatchObject({ verifyUrl: "http://127.0.0.1:9/siteverify", customVerifier: true });
  });
});

describe("the operator console's session secret", () => {
  const base = { DATABASE_URL: "postgresql://x@127.0.0.1/x" };
  test("unset: none configured (a generated one is kept in the database)", () => {
    expect(loadConfig(base).operatorSessionSecret).toBeNull();
  });
  test("32 characters or more is taken as is", () => {
    expect(loadConfig({ ...base, BOARD_OPERATOR_SESSION_SECRET: "s".repeat(32) }).operatorSessionSecret).toBe("s".repeat(32));
  });
  test("a short secret refuses to start", () => {
    expect(() => loadConfig({ ...base, BOARD_OPERATOR_SESSION_SECRET: "s".repeat(31) })).toThrow("BOARD_OPERATOR_SESSION_SECRET must be at least 32 characters");
  });
});

describe("next-auth's address", () => {
  test("is the console's auth path under the public URL", () => {
    const env: Record<string, string | undefined> = {};
    publishOperatorAuthUrl("https://board.example", env);
    expect(env.NEXTAUTH_URL).toBe("https://board.example/operator/auth");
  });
});

describe("the first operator (OPERATOR_BOOTSTRAP_*)", () => {
  const base = { DATABASE_URL: "postgresql://x@127.0.0.1/x" };
  test("neither variable: no bootstrap, and no default password", () => {
    expect(loadConfig(base).operatorBootstrap).toBeNull();
  });
  test("both variables: the first admin's email and password", () => {
    expect(loadConfig({ ...base, OPERATOR_BOOTSTRAP_EMAIL: "Ops@Example.org", OPERATOR_BOOTSTRAP_PASSWORD: "correct horse battery" }).operatorBootstrap).toEqual({ email: "Ops@Example.org", password: "correct horse battery" });
  });
  test.each([{ OPERATOR_BOOTSTRAP_EMAIL: "ops@example.org" }, { OPERATOR_BOOTSTRAP_PASSWORD: "correct horse battery" }])("only one of them refuses to start: %j", (env) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow("Set both OPERATOR_BOOTSTRAP_EMAIL and OPERATOR_BOOTSTRAP_PASSWORD");
  });
});

describe("BOARD_CONTENT_WORKER_NICENESS", () => {
  const base = { DATABASE_URL: "postgresql://x@127.0.0.1/x" };
  test.each([
    [undefined, 10],
    ["", 10],
    ["0", 0],
    ["19", 19],
  ])("%j gives the content threads nice value %i", (raw, expected) => {
    expect(loadConfig({ ...base, ...(raw === undefined ? {} : { BOARD_CONTENT_WORKER_NICENESS: raw }) }).contentWorkerNiceness).toBe(expected);
  });
  test.each(["20", "-1", "5.5", "ten", "07"])("%j refuses to start, naming the range", (raw) => {
    expect(() => loadConfig({ ...base, BOARD_CONTENT_WORKER_NICENESS: raw })).toThrow("BOARD_CONTENT_WORKER_NICENESS must be a whole number from 0 to 19");
  });
});

describe("BOARD_CACHE_CHANNEL", () => {
  const base = { DATABASE_URL: "postgresql://x@127.0.0.1/x" };
  test.each([
    [undefined, "board_cache"],
    ["", "board_cache"],
    ["board_cache_blue", "board_cache_blue"],
    ["_x9", "_x9"],
  ])("%j announces cache invalidations on channel %s", (raw, expected) => {
    expect(loadConfig({ ...base, ...(raw === undefined ? {} : { BOARD_CACHE_CHANNEL: raw }) }).cacheChannel).toBe(expected);
  });
  test.each(["Board_Cache", "9board", "board-cache", "board cache", "a".repeat(64)])("%j refuses to start, naming the form", (raw) => {
    expect(() => loadConfig({ ...base, BOARD_CACHE_CHANNEL: raw })).toThrow("BOARD_CACHE_CHANNEL must be a lower-case PostgreSQL identifier of at most 63 characters");
  });
});
