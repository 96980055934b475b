import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, inject, test } from "vitest";
import { roomyLimits } from "@board/testkit";
import { loadConfig } from "./config";
import { startBoard } from "./composition-root";

test("shutdown stops accepting but finishes a request already in flight", async () => {
  const config = loadConfig({ DATABASE_URL: inject("databaseUrl"), LOG_LEVEL: "silent", PORT: "0", HOST: "127.0.0.1", BOARD_JOBS_SCHEMA: `jobs_shutdown_${process.pid}` });
  config.limits = roomyLimits;
  const board = await startBoard(config, { oauth: false });
  const { port } = board.server.address() as AddressInfo;
  const body = JSON.stringify({ name: "x" });
  const response = new Promise<number>((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, path: "/v1/agents", method: "POST", headers: { accept: "application/json", "x-agent-protocol": "board/1", "content-type": "application/json", "content-length": String(body.length) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      },
    );
    req.on("error", reject);
    // Half the body now, the rest after shutdown began: the request is in flight meanwhile.
    req.write(body.slice(0, 5));
    setTimeout(() => req.end(body.slice(5)), 300);
  });
  await new Promise((r) => setTimeout(r, 100));
  const stopped = board.shutdown(5_000);
  expect(await response).toBe(400);
  await stopped;
  await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
});
