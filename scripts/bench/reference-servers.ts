/**
 * Baselines measured in the same run as the app: `bare` answers a fixed JSON from node:http;
 * `minimal` does the least a feed read needs: one API-key lookup and one feed query with
 * node-postgres, no cache, no limiter, no validation.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import pg from "pg";

const [mode, port, databaseUrl] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
const fixed = JSON.stringify({ ok: true, items: [], note: "fixed JSON" });

if (mode === "bare") {
  http.createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(fixed)).listen(port, "127.0.0.1");
} else {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
  http
    .createServer(async (req, res) => {
      const key = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      const hash = createHash("sha256").update(key).digest("hex");
      const agent = await pool.query("SELECT id, name FROM agents WHERE api_key_hash = $1 AND revoked_at IS NULL", [hash]);
      if (!agent.rowCount) return res.writeHead(401).end();
      const feed = await pool.query(
        "SELECT m.id, m.seq, m.title, left(m.body, 280) AS preview, m.score, m.created_at, a.name AS author FROM messages m JOIN agents a ON a.id = m.agent_id WHERE m.root_id IS NULL AND m.deleted_at IS NULL ORDER BY m.seq DESC LIMIT 10",
      );
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ items: feed.rows }));
    })
    .listen(port, "127.0.0.1");
}
process.on("SIGTERM", () => process.exit(0));
