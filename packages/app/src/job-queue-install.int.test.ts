import { afterAll, expect, inject, test } from "vitest";
import pg from "pg";
import { createLogger } from "@board/api";
import { addJob, openDatabase, pendingJobCount } from "@board/db";
import { BoardError } from "@board/domain";
import { jobQueueSchema } from "./jobs";

const logger = createLogger("silent");
const db = openDatabase(inject("databaseUrl"), { poolSize: 4 });
const schema = `jobs_install_${process.pid}`;

afterAll(async () => {
  await db.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await db.close();
});

test("no job is added before this process has seen the queue installed: the write is 503 job_queue with nothing written, and the install starts", async () => {
  const queue = jobQueueSchema(db.pool, schema, logger);
  expect(queue.installed).toBe(false);
  const refusal = await addJob(db.prisma, queue, { task: "install_probe", payload: {} }).then(() => null, (error: unknown) => error);
  expect(refusal).toBeInstanceOf(BoardError);
  expect(refusal).toMatchObject({ code: "SERVICE_UNAVAILABLE", details: { dependency: "job_queue" }, retryAfterSeconds: 1 });
  // The refusal started the install; the next write after it goes through.
  await queue.install();
  expect(queue.installed).toBe(true);
  await addJob(db.prisma, queue, { task: "install_probe", payload: {} });
  expect(await pendingJobCount(db.prisma, schema, "install_probe")).toBe(1);
});

test("concurrent installs share one attempt, and a failed attempt is not kept: the next call tries again", async () => {
  const refused = new pg.Pool({ connectionString: "postgresql://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 500 });
  // graphile-worker asks for both handlers (it warns otherwise); nothing here ever connects.
  refused.on("error", () => undefined);
  refused.on("connect", (client) => client.on("error", () => undefined));
  try {
    const queue = jobQueueSchema(refused, `${schema}_away`, logger);
    const first = queue.install();
    expect(queue.install()).toBe(first);
    await expect(first).rejects.toThrow(/ECONNREFUSED|connect/);
    expect(queue.installed).toBe(false);
    const second = queue.install();
    expect(second).not.toBe(first);
    await expect(second).rejects.toThrow();
  } finally {
    await refused.end();
  }
});
