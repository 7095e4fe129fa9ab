// A migrated embedded database to start from. Creating a PGlite data directory (its initdb) costs
// about a second and a half of CPU; a test bank or dashboard database instead starts from a copy
// of one made once per schema and PGlite version, kept in the temporary folder and shared by every
// test process. Opening the copy still runs the migrations (none left to apply) and the functions,
// as any later start does.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openMigratedPglite, type SchemaSource } from "../../lib/server/database.ts";

const PGLITE_PACKAGE = path.resolve("node_modules/@electric-sql/pglite/package.json");

/** A hash of every file the schema is built from, and of the PGlite release that wrote it. */
function schemaKey(source: SchemaSource): string {
  const h = createHash("sha256");
  h.update(fs.readFileSync(PGLITE_PACKAGE));
  for (const dir of [source.migrations, source.functions]) {
    if (!dir || !fs.existsSync(dir)) continue;
    for (const f of (fs.readdirSync(dir, { recursive: true }) as string[]).sort()) {
      const p = path.join(dir, f);
      if (fs.statSync(p).isFile()) h.update(f).update(fs.readFileSync(p));
    }
  }
  return h.digest("hex").slice(0, 16);
}

const made = new Map<string, Promise<string>>();

async function template(source: SchemaSource): Promise<string> {
  const dir = path.join(os.tmpdir(), `pglite-template-${schemaKey(source)}`);
  if (fs.existsSync(path.join(dir, "PG_VERSION"))) return dir;
  // Built aside and renamed into place, so that a process never copies a half-made one; when two
  // build it at once, the first rename wins and the other's copy is removed.
  const building = `${dir}.${process.pid}.${randomBytes(4).toString("hex")}`;
  const db = await openMigratedPglite(building, source);
  await db.close();
  fs.rmSync(path.join(building, "process.lock"), { force: true });
  try {
    fs.renameSync(building, dir);
  } catch {
    fs.rmSync(building, { recursive: true, force: true });
  }
  return dir;
}

/** Fills `into` (missing or empty) with a migrated data directory for `source`. */
export async function copyMigratedPglite(source: SchemaSource, into: string): Promise<void> {
  const key = `${source.migrations}|${source.functions ?? ""}`;
  let t = made.get(key);
  if (!t) {
    t = template(source);
    made.set(key, t);
    t.catch(() => made.delete(key));
  }
  fs.cpSync(await t, into, { recursive: true });
}
