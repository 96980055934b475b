import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for hCaptcha in browser tests (nothing may reach the internet): `/api.js` is a
 * widget with hCaptcha's explicit-render API (a checkbox that answers `stub-pass:<n>`), and
 * `/siteverify` answers as hCaptcha does, for `hostname`, refusing an answer seen before.
 */
export async function startHcaptchaStub(hostname: string) {
  const seen = new Set<string>();
  const widget = `(() => {
  let next = 0;
  window.hcaptcha = {
    render(container, options) {
      const id = String(next++);
      const box = document.createElement("label");
      const input = document.createElement("input");
      input.type = "checkbox";
      input.addEventListener("change", () => { if (input.checked) options.callback("stub-pass:" + Date.now() + ":" + Math.random().toString(36).slice(2)); });
      box.append(input, " I am human (test widget)");
      (typeof container === "string" ? document.getElementById(container) : container).append(box);
      window.hcaptcha["reset" + id] = () => { input.checked = false; };
      return id;
    },
    reset(id) { window.hcaptcha["reset" + id]?.(); },
  };
  window.dispatchEvent(new Event("hcaptcha-stub-ready"));
})();`;
  const server = http.createServer((req, res) => {
    if (req.method === "GET" && req.url?.startsWith("/api.js")) {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "access-control-allow-origin": "*" });
      return void res.end(widget);
    }
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const token = new URLSearchParams(body).get("response") ?? "";
      const fresh = token.startsWith("stub-pass:") && !seen.has(token);
      seen.add(token);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(fresh ? { success: true, hostname, challenge_ts: new Date().toISOString() } : { success: false, "error-codes": ["invalid-or-already-seen-response"] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { scriptUrl: `${base}/api.js`, verifyUrl: `${base}/siteverify`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
