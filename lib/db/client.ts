// The dashboard database: PGlite in DASHBOARD_DATA_DIR (default .data/dashboard) or PostgreSQL
// at DATABASE_URL, with Drizzle and migrations applied at open (lib/server/database.ts, as the bank).
import type { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { config } from "../config.ts";
import { openMigratedPg, openMigratedPglite } from "../server/database.ts";
import { poolQuery, poolTransaction } from "../server/pg-pool.ts";
import { processSingleton } from "../server/process-singleton.ts";
import * as schema from "./schema.ts";

export interface Queryable {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface DashboardDb extends Queryable {
  kind: "pglite" | "pg";
  orm: ReturnType<typeof drizzlePg<typeof schema>>;
  /** Runs fn in one transaction (rolled back on throw). */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function openDashboardDb(
  opts: { url?: string; dataDir?: string; poolSize?: number } = {},
): Promise<DashboardDb> {
  if (opts.url) return openPg(opts.url, opts.poolSize ?? 10);
  return openPglite(opts.dataDir ?? ".data/dashboard");
}

async function openPglite(dataDir: string): Promise<DashboardDb> {
  const { client, orm, close } = await openMigratedPglite(dataDir, schema, {
    migrations: config().migrationsDir,
  });
  return {
    kind: "pglite",
    orm: orm as unknown as DashboardDb["orm"],
    query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
    // PGlite has one connection; its transaction() serialises callers.
    tx: (fn) =>
      client.transaction((t) =>
        fn({ query: async (text, params) => (await t.query(text, params)).rows as never }),
      ),
    close,
  };
}

async function openPg(url: string, poolSize: number): Promise<DashboardDb> {
  const { pool, orm } = await openMigratedPg(
    url,
    poolSize,
    "dashboard-db",
    schema,
    { migrations: config().migrationsDir },
    72420001,
  );
  return {
    kind: "pg",
    orm,
    query: poolQuery(pool),
    tx: (fn) => poolTransaction(pool, fn),
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
  }),
);

export const getDashboardDb = held.get;

/** Tests and scripts: use this database instead of opening one from the environment. */
export const setDashboardDb = held.set;
