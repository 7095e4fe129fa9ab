// Opening a database and bringing it to the latest migration, for the bank and the dashboard
// alike: PGlite in a directory that one process at a time may hold (a lock file), or a
// PostgreSQL pool whose instances migrate one after another (an advisory lock). After the
// migrations, the program's SQL functions are (re)defined from their own folder at every open: a
// migration changes tables and data, and each function has one current definition, in one file.
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { PG_TYPES, PGLITE_PARSERS } from "./db-types.ts";
import { createPool } from "./pg-pool.ts";
import { lockDataDirectory } from "./pglite-lock.ts";

/** Where a database's shape comes from: Drizzle's migrations, then the current SQL functions. */
export interface SchemaSource {
  migrations: string;
  /** A folder of `*.sql` files of `CREATE OR REPLACE` definitions, applied in name order after the migrations. */
  functions?: string;
}

/** The `*.sql` files of a functions folder, in name order, as one script. */
function functionsScript(folder: string | undefined): string | null {
  if (!folder) return null;
  const files = fs
    .readdirSync(folder)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  return files.map((f) => fs.readFileSync(path.join(folder, f), "utf8")).join("\n");
}

export interface MigratedPglite {
  client: PGlite;
  /** Closes the database and gives its directory's lock back. */
  close(): Promise<void>;
}

/** PGlite in `dataDir` (`memory://` for none), locked to this process and migrated. */
export async function openMigratedPglite(dataDir: string, source: SchemaSource): Promise<MigratedPglite> {
  const dir = dataDir === "memory://" ? undefined : path.resolve(dataDir);
  // PGlite does not create missing parents; the lock keeps a second process out (it would lose writes).
  if (dir) fs.mkdirSync(path.dirname(dir), { recursive: true });
  const release = dir ? lockDataDirectory(dir) : () => {};
  try {
    const client = await PGlite.create(dir, { parsers: PGLITE_PARSERS });
    await migratePglite(drizzlePglite(client), { migrationsFolder: source.migrations });
    const functions = functionsScript(source.functions);
    if (functions) await client.transaction((t) => t.exec(functions));
    return {
      client,
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

/**
 * A PostgreSQL pool, migrated under the advisory lock `lockId` so that instances starting together
 * take turns. The migrations run on a connection of their own, outside the pool and closed before
 * the pool is handed out: a pool of one would otherwise wait for itself (the lock's connection
 * held while the migrator asks the pool for another).
 */
export async function openMigratedPg(
  url: string,
  poolSize: number,
  name: string,
  source: SchemaSource,
  lockId: number,
): Promise<pg.Pool> {
  const c = new pg.Client({ connectionString: url, types: PG_TYPES });
  // An error of this short-lived connection is the failed open's, never the process's.
  c.on("error", () => {});
  await c.connect();
  try {
    await c.query("SELECT pg_advisory_lock($1)", [lockId]);
    await migratePg(drizzlePg(c), { migrationsFolder: source.migrations });
    const functions = functionsScript(source.functions);
    if (functions)
      await c.query(`BEGIN;\n${functions}\nCOMMIT;`).catch(async (e) => {
        await c.query("ROLLBACK").catch(() => {});
        throw e;
      });
    await c.query("SELECT pg_advisory_unlock($1)", [lockId]);
  } finally {
    // Ending the session gives the advisory lock back even when a step above failed.
    await c.end().catch(() => {});
  }
  return createPool(url, poolSize, name);
}

/** The newest migration's time in a migrations folder's journal (read once per folder). */
const newestMigration = new Map<string, number>();
function newestMigrationIn(folder: string): number {
  let when = newestMigration.get(folder);
  if (when === undefined) {
    const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
      entries: { when: number }[];
    };
    when = Math.max(0, ...journal.entries.map((e) => e.when));
    newestMigration.set(folder, when);
  }
  return when;
}

/**
 * Readiness: the database answers and holds every migration this code knows (Drizzle records
 * each applied migration by its journal time). A database behind the code (restored from an
 * older backup, or a migration that failed) makes the program unready rather than wrong.
 */
export async function migrationsApplied(
  query: (text: string) => Promise<{ newest: number | null }[]>,
  folder: string,
): Promise<boolean> {
  const rows = await query("SELECT max(created_at) AS newest FROM drizzle.__drizzle_migrations");
  return (rows[0]?.newest ?? 0) >= newestMigrationIn(folder);
}
