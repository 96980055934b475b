/**
 * Driver adapter for the Prisma CLI's WASM schema engine only (never loaded by the app).
 * Works around three defects of @prisma/adapter-pg 6.19.3 measured on these machines:
 * 1. catalog columns of types the adapter cannot map ("Column type 'name' could not be deserialized");
 * 2. the shadow pool spreads a connectionString that overrides `database`, so "shadow" hits the main db;
 * 3. the shadow database is dropped before its pool closes, and then leaks.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";

const TEXT_OID = 25;
const TEXT_ARRAY_OID = 1009;
/** name, "char", int2vector, regproc, oidvector, pg_node_tree, regclass, regtype -> text; name[] -> text[]. */
const CATALOG_TEXT_OIDS = new Set([18, 19, 22, 24, 30, 194, 2205, 2206]);
const CATALOG_TEXT_ARRAY_OIDS = new Set([1003]);

type QueryResultLike = { fields?: Array<{ dataTypeID: number }> };

function reportCatalogTypesAsText<T>(result: T): T {
  for (const r of Array.isArray(result) ? result : [result]) {
    for (const field of (r as QueryResultLike)?.fields ?? []) {
      if (CATALOG_TEXT_OIDS.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
      else if (CATALOG_TEXT_ARRAY_OIDS.has(field.dataTypeID)) field.dataTypeID = TEXT_ARRAY_OID;
    }
  }
  return result;
}

/** pg values of these types already arrive as strings; only the reported type ids need changing. */
class CatalogSafeClient extends pg.Client {
  // pg's overloads (promise, callback, submittable) cannot be re-declared precisely; forward them all.
  override query(...args: unknown[]): never {
    const last = args.at(-1);
    if (typeof last === "function") {
      args[args.length - 1] = (err: unknown, res: unknown) => last(err, err ? res : reportCatalogTypesAsText(res));
      return (super.query as (...a: unknown[]) => never)(...args);
    }
    const out = (super.query as (...a: unknown[]) => unknown)(...args);
    if (out && typeof (out as Promise<unknown>).then === "function") {
      return (out as Promise<unknown>).then(reportCatalogTypesAsText) as never;
    }
    return out as never;
  }
}

type ConnectionFields = { host: string; port: number; user: string; password?: string; database: string };

function connectionFields(databaseUrl: string): ConnectionFields {
  const url = new URL(databaseUrl);
  return {
    host: decodeURIComponent(url.hostname || "127.0.0.1"),
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username || "postgres"),
    password: url.password ? decodeURIComponent(url.password) : undefined,
    database: decodeURIComponent(url.pathname.replace(/^\//, "")) || "postgres",
  };
}

function poolFor(fields: ConnectionFields): pg.Pool {
  return new pg.Pool({ ...fields, Client: CatalogSafeClient, allowExitOnIdle: true, max: 4 });
}

class MigrationAdapterFactory extends PrismaPg {
  constructor(private readonly fields: ConnectionFields) {
    super(poolFor(fields), { disposeExternalPool: true });
  }

  override async connect() {
    const adapter = await super.connect();
    const pool = adapter.underlyingDriver() as pg.Pool;
    // The adapter splits scripts on ";", which breaks statements holding semicolons; send them whole.
    adapter.executeScript = async (script: string) => {
      await pool.query(script);
    };
    return adapter;
  }

  override async connectToShadowDb() {
    const admin = new pg.Pool({ ...this.fields, allowExitOnIdle: true, max: 1 });
    const database = `prisma_shadow_${randomUUID().replaceAll("-", "")}`;
    await admin.query(`CREATE DATABASE "${database}"`);
    const shadow = new MigrationAdapterFactory({ ...this.fields, database });
    const adapter = await shadow.connect();
    const releasePool = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await releasePool();
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.end();
    };
    return adapter;
  }
}

export function migrationAdapter(databaseUrl: string) {
  return new MigrationAdapterFactory(connectionFields(databaseUrl));
}

/** The WASM engine leaves 10 s and 60 s timers behind; unref them so the CLI exits when its work is done. */
export function unrefLongTimers(thresholdMs = 5_000): void {
  const original = globalThis.setTimeout;
  globalThis.setTimeout = ((handler: TimerHandler, timeout?: number, ...rest: unknown[]) => {
    const timer = original(handler as () => void, timeout, ...rest);
    if ((timeout ?? 0) >= thresholdMs) timer.unref?.();
    return timer;
  }) as typeof setTimeout;
}
