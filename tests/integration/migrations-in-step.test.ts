// Each database's migrations, its Drizzle schema (schema.ts) and drizzle-kit's latest snapshot
// describe one set of tables: a schema change without its migration, a migration the schema does
// not declare, or a stale snapshot (`drizzle-kit generate` would write a wrong diff) fails here.
// The ledger's SQL functions and triggers (bank/db/functions/) are applied at every open and are
// not Drizzle's business.
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { generateDrizzleJson, generateMigration } from "drizzle-kit/api";
import { describe, expect, it } from "vitest";
import * as bankSchema from "../../bank/db/schema.ts";
import * as dashboardSchema from "../../lib/db/schema.ts";
import { openMigratedPglite } from "../../lib/server/database.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

/** Every table's columns, indexes, constraints and sequences, one line each, names included. */
const CATALOG = `
SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' '
       || coalesce(column_default, '-') || coalesce(' generated ' || generation_expression, '') AS x
  FROM information_schema.columns WHERE table_schema = 'public'
UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
  FROM pg_constraint WHERE connamespace = 'public'::regnamespace
UNION ALL SELECT 'sequence ' || sequencename FROM pg_sequences WHERE schemaname = 'public'
ORDER BY 1`;

const DATABASES = [
  { name: "dashboard", schema: dashboardSchema, migrations: "lib/db/migrations" },
  { name: "bank", schema: bankSchema, migrations: "bank/db/migrations" },
] as const;

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}

describe.each(DATABASES)("the $name database", ({ schema, migrations }) => {
  const folder = path.join(ROOT, migrations);
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as Journal;

  it("journals every migration once, each newer than the one before", () => {
    // Drizzle's migrator skips a migration older than the newest a database holds: an entry
    // dated before its predecessor never reaches a database that already has the predecessor.
    const files = fs.readdirSync(folder).filter((f) => f.endsWith(".sql"));
    expect(journal.entries.map((e) => `${e.tag}.sql`)).toEqual(files.sort());
    journal.entries.forEach((e, i) => {
      expect(e.idx).toBe(i);
      if (i > 0) expect(e.when, e.tag).toBeGreaterThan(journal.entries[i - 1].when);
    });
  });

  it("has a latest snapshot that matches schema.ts, so drizzle-kit generates no diff", async () => {
    const last = journal.entries.at(-1);
    const file = path.join(folder, "meta", `${String(last?.idx).padStart(4, "0")}_snapshot.json`);
    expect(fs.existsSync(file), `${file} (run drizzle-kit generate)`).toBe(true);
    const snapshot = JSON.parse(fs.readFileSync(file, "utf8"));
    const diff = await generateMigration(snapshot, generateDrizzleJson(schema) as never);
    expect(diff).toEqual([]);
  });

  it("is built by its migrations exactly as schema.ts declares it", async () => {
    const migrated = await openMigratedPglite("memory://", { migrations: folder });
    const declared = await PGlite.create();
    try {
      for (const statement of await generateMigration(
        generateDrizzleJson({}) as never,
        generateDrizzleJson(schema) as never,
      ))
        await declared.exec(statement);
      const lines = async (db: PGlite) => (await db.query<{ x: string }>(CATALOG)).rows.map((r) => r.x);
      const [fromMigrations, fromSchema] = [await lines(migrated.client), await lines(declared)];
      expect(fromMigrations.length).toBeGreaterThan(100);
      expect(fromMigrations).toEqual(fromSchema);
    } finally {
      await migrated.close();
      await declared.close();
    }
  }, 300_000);
});
