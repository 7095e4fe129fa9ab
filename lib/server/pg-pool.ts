// A node-postgres pool whose idle connections may die (a server restart, a failover, an
// administrator ending sessions) without taking the process down: pg re-emits such errors on
// the pool, and an 'error' event with no listener is thrown. Its connections read values as
// lib/server/db-types.ts says, the same as PGlite.
import pg from "pg";
import { PG_TYPES } from "./db-types.ts";
import { createLogger } from "./log.ts";

export function createPool(url: string, max: number, name: string): pg.Pool {
  const log = createLogger(name);
  const pool = new pg.Pool({ connectionString: url, max, types: PG_TYPES });
  pool.on("error", (err) => log.warn("idle database connection lost", { err: err.message }));
  return pool;
}

export interface Rows {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

/** Rows of one statement on any pool connection. */
export const poolQuery =
  (pool: pg.Pool) =>
  async <T>(text: string, params?: unknown[]): Promise<T[]> =>
    (await pool.query(text, params as unknown[])).rows as T[];

/** Runs fn on one connection inside BEGIN/COMMIT; rolls back and rethrows on any error. */
export async function poolTransaction<T>(pool: pg.Pool, fn: (q: Rows) => Promise<T>): Promise<T> {
  const conn = await pool.connect();
  try {
    await conn.query("BEGIN");
    const r = await fn({
      query: async (text, params) => (await conn.query(text, params as unknown[])).rows as never,
    });
    await conn.query("COMMIT");
    return r;
  } catch (e) {
    await conn.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    conn.release();
  }
}
