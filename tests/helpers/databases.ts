// A fresh PostgreSQL database per test bank when TEST_DATABASE_URL is set.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { BANK_SCHEMA_SOURCE } from "../../bank/db/client.ts";
import type { SchemaSource } from "../../lib/server/database.ts";

export const PG_URL = process.env.TEST_DATABASE_URL;

export async function createTestDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bank_test_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await c.end();
    },
  };
}

/**
 * A copy of the bank's migrations as they were before migration `first` (its journal cut there),
 * in a fresh temporary folder, with no functions: an upgrade test opens a database with it,
 * writes old rows, then opens it with BANK_SCHEMA_SOURCE. `dir` is removed by the caller.
 */
export function bankMigrationsBefore(first: number, prefix: string): { dir: string; before: SchemaSource } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const migrations = path.join(dir, "migrations");
  fs.cpSync(BANK_SCHEMA_SOURCE.migrations, migrations, { recursive: true });
  const journalFile = path.join(migrations, "meta/_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const later = (tag: string) => Number(tag.slice(0, 4)) >= first;
  for (const e of journal.entries) if (later(e.tag)) fs.rmSync(path.join(migrations, `${e.tag}.sql`));
  journal.entries = journal.entries.filter((e) => !later(e.tag));
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return { dir, before: { migrations } };
}
