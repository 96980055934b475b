import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import type { App } from "./app";
import { createLogger } from "./logger";
import { createNodeServer } from "./node-server";

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** An app whose own surfaces answer nothing, with a mounted surface that declines every request. */
function decliningApp(seen: string[]): App {
  return {
    logger: createLogger("silent"),
    handle: async () => null,
    hasMounted: true,
    handleMounted: async (request: Request) => {
      seen.push(new URL(request.url).pathname);
      return null;
    },
  } as unknown as App;
}

describe("the Node bridge", () => {
  test("a body that no mounted surface read reaches the fallback whole (a console form post)", async () => {
    const seen: string[] = [];
    const { server } = createNodeServer(decliningApp(seen), async (req, res) => {
      // As Next does: other work (the session, the page cache) before the body is read.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      res.writeHead(200, { "content-type": "text/plain" }).end(Buffer.concat(chunks));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const form = new URLSearchParams({ csrf_token: "t".repeat(43), key: "retainedAccounts", value: "0", reason: "x".repeat(5_000) }).toString();
    const response = await fetch(`http://127.0.0.1:${port}/operator/actions/set-limit`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(form);
    expect(seen).toEqual(["/operator/actions/set-limit"]);
  });

  test("a method the Fetch API cannot carry (TRACE) skips the mounted surfaces and reaches the fallback, instead of failing with 500", async () => {
    const seen: string[] = [];
    const { server } = createNodeServer(decliningApp(seen), async (req, res) => {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end(`${req.method} is not served here`);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request({ host: "127.0.0.1", port, method: "TRACE", path: "/livez" }, (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      request.on("error", reject);
      request.end();
    });
    expect(status).toBe(405);
    expect(seen).toEqual([]);
  });
});
