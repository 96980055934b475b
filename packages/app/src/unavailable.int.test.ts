import { afterAll, beforeAll, expect, test } from "vitest";
import { loadConfig } from "./config";
import { startBoard, type RunningBoard } from "./composition-root";

// Nothing listens on port 1: every dependency call fails fast.
let baseUrl: string;
let board: RunningBoard;

beforeAll(async () => {
  board = await startBoard(loadConfig({ DATABASE_URL: "postgresql://postgres@127.0.0.1:1/none", LOG_LEVEL: "silent", PORT: "0", HOST: "127.0.0.1" }), { oauth: false });
  baseUrl = board.config.publicUrl;
});
afterAll(() => board.shutdown(500));

test("an unreachable database or limiter gives 503 with Retry-After and a clear code, not a hang", async () => {
  const started = Date.now();
  const res = await fetch(baseUrl + "/v1/me", { headers: { accept: "application/json", "x-agent-protocol": "board/1", authorization: "Bearer ab1_x" } });
  expect(Date.now() - started).toBeLessThan(8_000);
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("5");
  const body = await res.json();
  expect(body.error.code).toBe("SERVICE_UNAVAILABLE");
  expect(["database", "limiter"]).toContain(body.error.details.dependency);
});

test("/healthz says which dependency is down", async () => {
  const res = await fetch(baseUrl + "/healthz");
  expect(res.status).toBe(503);
  expect(await res.json()).toMatchObject({ status: "unavailable", database: { ok: false }, limiter: { ok: false } });
});
