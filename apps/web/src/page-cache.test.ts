import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { TaggedCache, type ServiceDeps } from "@board/services";
import { answerFromPageCache } from "./page-cache";

const ARTICLE = "/showcase/0b6f0a52-4a4c-4d55-9c1e-2a4a5a7d9f10";

/**
 * The page cache in front of a stand-in renderer (Next's place), over real HTTP: each response
 * gets its own policy nonce, as page-policy.ts sets it, and the renderer writes it into the page.
 */
function site(options: { leaveBeforeRender: (req: IncomingMessage) => boolean }) {
  const deps = { cache: new TaggedCache(1_000, () => new Date()) } as unknown as ServiceDeps;
  let nonces = 0;
  let renders = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const nonce = `nonce${String(++nonces).padStart(17, "0")}==`;
    res.setHeader("Content-Security-Policy", `script-src 'nonce-${nonce}'`);
    // The site's checks before the cache are asynchronous (database away, gone article): a client
    // can leave, and its response close, before the cache sees the request.
    if (options.leaveBeforeRender(req)) {
      req.socket.destroy();
      await once(res, "close");
    }
    await answerFromPageCache(deps, req, res, async () => {
      renders++;
      if (res.destroyed) return;
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><script nonce="${nonce}"></script><p>article</p>`);
    });
  });
  return { server, renders: () => renders };
}

function get(server: Server, headers: Record<string, string> = {}): Promise<{ status: number; policy: string; body: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: ARTICLE, headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, policy: String(res.headers["content-security-policy"]), body }));
    });
    req.on("error", reject);
    req.end();
  });
}

let running: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (running ? running.close(() => resolve()) : resolve())));

describe("the article page cache", () => {
  test("a reader who left before the render began does not hold up the readers after them", async () => {
    const { server, renders } = site({ leaveBeforeRender: (req) => req.headers["x-leaves"] === "1" });
    running = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    await expect(get(server, { "x-leaves": "1" })).rejects.toThrow();
    const next = await Promise.race([get(server), new Promise<"waited">((resolve) => setTimeout(() => resolve("waited"), 3_000))]);
    expect(next).toMatchObject({ status: 200, body: expect.stringContaining("<p>article</p>") });
    expect(renders()).toBe(2);
  });

  test("readers of the cached copy each get the nonce of their own policy", async () => {
    const { server, renders } = site({ leaveBeforeRender: () => false });
    running = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const first = await get(server);
    const second = await get(server);
    expect(renders()).toBe(1);
    for (const page of [first, second]) {
      const nonce = /'nonce-([^']+)'/.exec(page.policy)?.[1];
      expect(page.body).toContain(`<script nonce="${nonce}">`);
    }
    expect(first.policy).not.toBe(second.policy);
  });
});
