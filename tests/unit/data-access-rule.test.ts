// The data-access rule (docs/decisions.md, "Queries"): statements are SQL typed by SqlRow, and
// Drizzle only declares the tables and migrates. A query builder or a Drizzle handle coming back,
// or a process-wide pg type parser, fails here before it spreads.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const PROGRAM_FOLDERS = ["app", "bank", "bench", "components", "hooks", "lib", "scripts", "sim"];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "migrations" ? [] : sources(p);
    return /\.(ts|tsx|js)$/.test(e.name) ? [p] : [];
  });
}

const files = PROGRAM_FOLDERS.flatMap(sources);

describe("the data-access rule", () => {
  it("imports Drizzle only to declare the tables, type their rows and migrate", () => {
    const importers = files.filter((f) => /from "drizzle-orm/.test(fs.readFileSync(f, "utf8"))).sort();
    expect(importers).toEqual([
      "bank/db/schema.ts",
      "lib/db/schema.ts",
      "lib/server/database.ts",
      "lib/server/sql-row.ts",
    ]);
  });

  it("opens every connection of the two programs with the shared readers of values", () => {
    const programs = files.filter((f) => /^(lib|bank)\//.test(f));
    const opens = programs.flatMap((f) =>
      [
        ...fs
          .readFileSync(f, "utf8")
          .matchAll(/new pg\.(?:Client|Pool)\(\{[^}]*\}\)|PGlite\.create\([^)]*\)/g),
      ].map((m) => `${f}: ${m[0]}`),
    );
    expect(opens.length).toBeGreaterThan(4);
    expect(opens.filter((o) => !/types: PG_TYPES|parsers: PGLITE_PARSERS/.test(o))).toEqual([]);
  });

  it("never changes pg's process-wide type parsers (each connection sets its own)", () => {
    const setters = files.filter((f) => /types\.setTypeParser\(/.test(fs.readFileSync(f, "utf8")));
    expect(setters).toEqual([]);
  });
});
