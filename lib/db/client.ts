// The dashboard database: PGlite in DASHBOARD_DATA_DIR (default .data/dashboard) or PostgreSQL
// at DATABASE_URL, with Drizzle and migrations applied at open (mirrors bank/db/client.ts).
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { config } from "../config.ts";
import { createPool, poolQuery, poolTransaction } from "../server/pg-pool.ts";
import { lockDataDirectory } from "../server/pglite-lock.ts";
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
  const dir = dataDir === "memory://" ? undefined : path.resolve(dataDir);
  // PGlite does not create missing parents (STACK.md, pitfall 2); the lock guards pitfall 3.
  if (dir) fs.mkdirSync(path.dirname(dir), { recursive: true });
  const release = dir ? lockDataDirectory(dir) : () => {};
  let client: PGlite;
  try {
    client = await PGlite.create(dir);
    const orm = drizzlePglite(client, { schema });
    await migratePglite(orm, { migrationsFolder: config().migrationsDir });
    return {
      kind: "pglite",
      orm: orm as unknown as DashboardDb["orm"],
      query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
      // PGlite has one connection; its transaction() serialises callers.
      tx: (fn) =>
        client.transaction((t) =>
          fn({ query: async (text, params) => (await t.query(text, params)).rows as never }),
        ),
      async close() {
        await client.close();
        release();
      },
    };
  } catch (e) {
    release();
    throw e;
  }
}

async function openPg(url: string, poolSize: number): Promise<DashboardDb> {
  const pool = createPool(url, poolSize, "dashboard-db");
  const orm = drizzlePg(pool, { schema });
  // Instances starting together must not migrate at once.
  const c = await pool.connect();
  try {
    await c.query("SELECT pg_advisory_lock(72420001)");
    await migratePg(orm, { migrationsFolder: config().migrationsDir });
  } finally {
    await c.query("SELECT pg_advisory_unlock(72420001)").catch(() => {});
    c.release();
  }
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
const KEY = Symbol.for("treasury.dashboardDb");
type Holder = { [KEY]?: Promise<DashboardDb> };

export function getDashboardDb(): Promise<DashboardDb> {
  const g = globalThis as Holder;
  if (!g[KEY]) {
    const p = openDashboardDb({
      url: config().databaseUrl,
      dataDir: config().dataDir,
    });
    g[KEY] = p;
    // Never cache a failed open (STACK.md, pitfall 2): the next request tries again.
    p.catch(() => {
      if (g[KEY] === p) g[KEY] = undefined;
    });
  }
  return g[KEY];
}

/** Tests and scripts: use this database instead of opening one from the environment. */
export function setDashboardDb(db: DashboardDb | undefined): void {
  (globalThis as Holder)[KEY] = db ? Promise.resolve(db) : undefined;
}
