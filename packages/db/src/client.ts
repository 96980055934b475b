import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client";

// BIGINT (int8) as JS number: sequences stay far below 2^53 and the API speaks integers.
pg.types.setTypeParser(20, (value) => Number(value));
// Dates go to PostgreSQL in UTC, whatever the process's time zone: a UTC day passed as `$1::date`
// (the daily counters) would otherwise be read as the previous day west of Greenwich.
pg.defaults.parseInputDatesAsUTC = true;

export interface DatabaseOptions {
  poolSize?: number;
  /** Fail fast instead of hanging when the database is unreachable. */
  connectionTimeoutMillis?: number;
  statementTimeoutMillis?: number;
  /**
   * Refuse a connection asked of the pool by code running inside an interactive transaction (the
   * tests turn this on). Such code holds one connection and waits for a second: with as many
   * requests in flight as the pool has connections, each waits for the others until the connect
   * timeout. Inside a transaction every query goes through its `tx`.
   */
  refuseNestedConnections?: boolean;
}

/**
 * Prisma's defaults (2 s to get a connection, 5 s to finish) are shorter than the pool's own budget,
 * so a burst of parallel writes failed with "Unable to start a transaction" while the pool would still
 * have served them; one budget for every interactive transaction, longer-running ones pass their own timeout.
 */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 };

function makePrisma(pool: pg.Pool) {
  // API keys are hashed at rest and never leave the database layer unless a query asks for them.
  return new PrismaClient({ adapter: new PrismaPg(pool), omit: { agent: { apiKeyHash: true } }, transactionOptions: TRANSACTION_OPTIONS });
}

export type Prisma = ReturnType<typeof makePrisma>;
export type Tx = Parameters<Parameters<Prisma["$transaction"]>[0]>[0];
export type Queryable = Prisma | Tx;

export interface Database {
  prisma: Prisma;
  /** The same pool Prisma uses: for hot read paths and the rate-limiter store. */
  pool: pg.Pool;
  close(): Promise<void>;
}

/**
 * Text to find as itself inside a LIKE pattern (PostgreSQL's default escape is the backslash):
 * an operator's `_` or `%` is a character to look for, not a wildcard. Prisma's `contains` does
 * not escape them either.
 */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A query built with Prisma.sql, run on the raw pool: hot reads skip the ORM's per-query work. */
export async function rawRows<Row>(pool: pg.Pool, query: { text: string; values: unknown[] }): Promise<Row[]> {
  return (await pool.query(query.text, query.values)).rows as Row[];
}

/**
 * The pool as Prisma's driver adapter sees it: a client it checks out for a transaction goes back
 * to the pool (which discards it) as soon as its connection breaks, once only. The adapter itself
 * releases a transaction's client only after a successful COMMIT or ROLLBACK: when PostgreSQL
 * restarts mid-transaction both fail, the client stays checked out for ever, and each restart
 * would shrink the pool until every request waited for a connection in vain.
 */
function releasingBrokenClients(pool: pg.Pool): pg.Pool {
  const connect = async () => {
    const client = await pool.connect();
    const release = client.release.bind(client);
    let released = false;
    const releaseOnce = (error?: Error | boolean) => {
      if (released) return;
      released = true;
      client.removeListener("error", releaseOnce);
      client.removeListener("end", onEnd);
      release(error);
    };
    const onEnd = () => releaseOnce(new Error("Connection terminated"));
    client.on("error", releaseOnce);
    client.on("end", onEnd);
    client.release = releaseOnce;
    return client;
  };
  return new Proxy(pool, {
    get(target, property) {
      if (property === "connect") return connect;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export function openDatabase(databaseUrl: string, options: DatabaseOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 3_000,
    statement_timeout: options.statementTimeoutMillis ?? 10_000,
  });
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on("error", () => undefined);
  pool.on("connect", (client) => client.on("error", () => undefined));
  const basePrisma = makePrisma(releasingBrokenClients(pool));
  const prisma = options.refuseNestedConnections ? refusingNestedConnections(pool, basePrisma) : basePrisma;
  let closing: Promise<void> | null = null;
  return {
    prisma,
    pool,
    // Idempotent: a signal relayed twice (package runner, then tsx) must not end the pool twice.
    close() {
      closing ??= basePrisma.$disconnect().then(() => pool.end());
      return closing;
    },
  };
}

const NESTED_CONNECTION = "A query asked the pool for a second connection inside an interactive transaction; run it on the transaction's tx instead (the pool would deadlock under load).";

/**
 * The client as `refuseNestedConnections` sees it: the callback of every interactive transaction
 * runs in a context the pool checks on each `connect` (which `pool.query` and Prisma's own
 * queries go through). The transaction's own connection is taken before its callback starts.
 */
function refusingNestedConnections(pool: pg.Pool, prisma: Prisma): Prisma {
  const inTransaction = new AsyncLocalStorage<true>();
  const connect = pool.connect.bind(pool) as (callback?: (error: Error | undefined, client?: pg.PoolClient, done?: () => void) => void) => Promise<pg.PoolClient> | void;
  pool.connect = ((callback?: (error: Error | undefined, client?: pg.PoolClient, done?: () => void) => void) => {
    if (inTransaction.getStore()) {
      const error = new Error(NESTED_CONNECTION);
      if (callback) return void callback(error);
      return Promise.reject(error);
    }
    return connect(callback);
  }) as typeof pool.connect;
  const transaction = prisma.$transaction.bind(prisma) as (arg: unknown, options?: unknown) => Promise<unknown>;
  return new Proxy(prisma, {
    get(target, property) {
      if (property !== "$transaction") {
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (arg: unknown, options?: unknown) =>
        typeof arg === "function" ? transaction((tx: Tx) => inTransaction.run(true, () => (arg as (tx: Tx) => unknown)(tx)), options) : transaction(arg, options);
    },
  });
}
