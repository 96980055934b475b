import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ContentChecker } from "../checking-types";
import { combineCheckers, httpContentChecker } from "./http-checker";

/** A local stand-in for an external moderation service: the answer depends on the first text. */
let server: http.Server;
let url: string;
const received: Array<{ authorization?: string; body: unknown }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const body = JSON.parse(raw) as { texts: string[] };
      received.push({ authorization: req.headers.authorization, body });
      const [first] = body.texts;
      if (first === "slow") return void setTimeout(() => res.end('{"outcome":"pass"}'), 2_000);
      if (first === "boom") return void res.writeHead(502).end("bad gateway");
      if (first === "teapot") return void res.writeHead(418).end("{}");
      if (first === "garbled") return void res.writeHead(200, { "content-type": "application/json" }).end("{not json");
      if (first === "odd") return void res.end('{"outcome":"maybe"}');
      if (first === "bad") return void res.end('{"outcome":"fail","reasons":[{"code":"hate","message":"hateful"}]}');
      if (first === "hmm") return void res.end('{"outcome":"uncertain","reasons":[{"code":"borderline","message":"borderline"}]}');
      res.end('{"outcome":"pass"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/moderate`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("httpContentChecker against a local moderation server", () => {
  test.each([
    ["fine", { outcome: "pass" }],
    ["bad", { outcome: "fail", reasons: [{ code: "hate", message: "hateful" }] }],
    ["hmm", { outcome: "uncertain", reasons: [{ code: "borderline", message: "borderline" }] }],
    ["boom", { outcome: "unavailable", reason: "The moderation service answered HTTP 502." }],
    ["teapot", { outcome: "unavailable", reason: "The moderation service answered HTTP 418." }],
    ["garbled", { outcome: "unavailable", reason: "The moderation service answered malformed JSON." }],
    ["odd", { outcome: "unavailable", reason: "The moderation service answered an unknown verdict." }],
  ])("%s -> %j", async (text, verdict) => {
    expect(await httpContentChecker({ url, token: "secret" }).check({ kind: "article", texts: [text] })).toEqual(verdict);
  });

  test("a timeout and a refused connection are unavailable, never a pass", async () => {
    expect(await httpContentChecker({ url, timeoutMs: 200 }).check({ kind: "article", texts: ["slow"] })).toMatchObject({ outcome: "unavailable" });
    expect(await httpContentChecker({ url: "http://127.0.0.1:1/moderate" }).check({ kind: "article", texts: ["fine"] })).toMatchObject({ outcome: "unavailable" });
  });

  test("it sends kind and texts as JSON with the bearer token", async () => {
    await httpContentChecker({ url, token: "secret" }).check({ kind: "nickname", texts: ["fine", "second"] });
    expect(received.at(-1)).toEqual({ authorization: "Bearer secret", body: { kind: "nickname", texts: ["fine", "second"] } });
  });
});

describe("combineCheckers: the worst verdict wins", () => {
  const fixed = (verdict: Awaited<ReturnType<ContentChecker["check"]>>): ContentChecker => ({ check: async () => verdict });
  test.each([
    [[{ outcome: "pass" }, { outcome: "pass" }], "pass"],
    [[{ outcome: "pass" }, { outcome: "uncertain", reasons: [] }], "uncertain"],
    [[{ outcome: "uncertain", reasons: [] }, { outcome: "unavailable", reason: "down" }], "unavailable"],
    [[{ outcome: "unavailable", reason: "down" }, { outcome: "fail", reasons: [] }], "fail"],
  ] as const)("%j -> %s", async (verdicts, outcome) => {
    expect((await combineCheckers(verdicts.map((v) => fixed(v as never))).check({ kind: "article", texts: ["x"] })).outcome).toBe(outcome);
  });

  test("reasons of every checker with the winning verdict are merged", async () => {
    const combined = combineCheckers([fixed({ outcome: "fail", reasons: [{ code: "a", message: "a" }] }), fixed({ outcome: "fail", reasons: [{ code: "b", message: "b" }] })]);
    expect(await combined.check({ kind: "article", texts: ["x"] })).toEqual({ outcome: "fail", reasons: [{ code: "a", message: "a" }, { code: "b", message: "b" }] });
  });
});
