// The dashboard database: PGlite in DASHBOARD_DATA_DIR (default .data/dashboard) or PostgreSQL
// at DATABASE_URL, migrations applied at open (lib/server/database.ts, as the bank); raw SQL typed
// by SqlRow (docs/decisions.md, "Queries").
import pg from "pg";
import { config } from "../config.ts";
import { openMigratedPg, openMigratedPglite } from "../server/database.ts";
import { PG_TYPES } from "../server/db-types.ts";
import { poolQuery, poolTransaction } from "../server/pg-pool.ts";
import { processSingleton } from "../server/process-singleton.ts";

export interface Queryable {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface DashboardDb extends Queryable {
  kind: "pglite" | "pg";
  /** Runs fn in one transaction (rolled back on throw). */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs fn while holding the lock `lockId` shared by every instance on this database (a
   * PostgreSQL advisory lock on a connection of its own, so fn may use the pool, even a pool of
   * one; on PGlite, one process, callers take turns in it).
   */
  exclusive<T>(lockId: number, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Callers of one lock in this process, one after another. */
function localLocks() {
  const tails = new Map<number, Promise<unknown>>();
  return <T>(lockId: number, fn: () => Promise<T>): Promise<T> => {
    const run = (tails.get(lockId) ?? Promise.resolve()).catch(() => {}).then(fn);
    tails.set(lockId, run);
    run
      .finally(() => {
        if (tails.get(lockId) === run) tails.delete(lockId);
      })
      .catch(() => {});
    return run;
  };
}

export async function openDashboardDb(
  opts: { url?: string; dataDir?: string; poolSize?: number } = {},
): Promise<DashboardDb> {
  if (opts.url) return openPg(opts.url, opts.poolSize ?? 10);
  return openPglite(opts.dataDir ?? ".data/dashboard");
}

async function openPglite(dataDir: string): Promise<DashboardDb> {
  const { client, close } = await openMigratedPglite(dataDir, { migrations: config().migrationsDir });
  return {
    kind: "pglite",
    query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
    // PGlite has one connection; its transaction() serialises callers.
    tx: (fn) =>
      client.transaction((t) =>
        fn({ query: async (text, params) => (await t.query(text, params)).rows as never }),
      ),
    exclusive: localLocks(),
    close,
  };
}

async function openPg(url: string, poolSize: number): Promise<DashboardDb> {
  const pool = await openMigratedPg(
    url,
    poolSize,
    "dashboard-db",
    { migrations: config().migrationsDir },
    72420001,
  );
  return {
    kind: "pg",
    query: poolQuery(pool),
    tx: (fn) => poolTransaction(pool, fn),
    async exclusive(lockId, fn) {
      const c = new pg.Client({ connectionString: url, types: PG_TYPES });
      c.on("error", () => {});
      await c.connect();
      try {
        await c.query("SELECT pg_advisory_lock($1)", [lockId]);
        return await fn();
      } finally {
        // Ending the session gives the lock back, also when fn failed or the unlock cannot be sent.
        await c.query("SELECT pg_advisory_unlock($1)", [lockId]).catch(() => {});
        await c.end().catch(() => {});
      }
    },
    async close() {
      await pool.end();
    },
  };
}

// One connection per process, kept on globalThis: route bundles may load this module more than
// once, and a second PGlite open of the same directory would be refused by the lock.
const held = processSingleton<DashboardDb>("treasury.dashboardDb", () =>
  openDashboardDb({
    url: config().databaseUrl,
    dataDir: config().dataDir,
    poolSize: config().databasePool,
  }),
);

export const getDashboardDb = held.get;

/** The database if this process has opened it (or is opening it), without opening it. */
export const openedDashboardDb = held.peek;

/** Tests and scripts: use this database instead of opening one from the environment. */
export const setDashboardDb = held.set;
