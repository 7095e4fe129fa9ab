// Small rules spelled in one place: a query key of the dashboard's cache is named in
// lib/dashboard-api/query-keys.ts (a literal key elsewhere is one a refresh can miss), and a
// PostgreSQL test is skipped by one guard (PG_URL, tests/helpers/databases.ts), not by reading the
// environment again in its own words. A schema held in a constant (zod, or a JSON Schema fragment
// of the OpenAPI document) is named in PascalCase ending in Schema (`FooSchema`), never `fooSchema`
// nor `FOO_SCHEMA` (docs/architecture.md, "Names"); a function that builds one is camelCase.
import { describe, expect, it } from "vitest";
import { copiesOutside } from "../helpers/copies.ts";

describe("spelled once", () => {
  it("names every query key in query-keys.ts", () => {
    expect(
      copiesOutside(
        ["lib/dashboard-api/query-keys.ts"],
        [/queryKey: \[\s*["'`]/, /queryKey: \[\s*\.\.\./],
        ["lib", "components", "app", "hooks"],
      ),
    ).toEqual([]);
  });

  it("skips a PostgreSQL test by PG_URL alone", () => {
    expect(copiesOutside(["tests/helpers/databases.ts"], [/skipIf\(!process\.env\./], ["tests"])).toEqual([]);
  });

  it("names a schema constant FooSchema, never fooSchema nor FOO_SCHEMA", () => {
    // A declaration whose value is not a function: `const loadSchema = () => import(...)` is a loader.
    const otherSpelling =
      /\b(?:const|let|var)\s+(?:[a-z]\w*Schema|[A-Z0-9_]*_SCHEMA)\s*(?::[^=]+)?=(?!\s*(?:\(|async\b))/;
    expect(
      copiesOutside(
        [],
        [otherSpelling],
        ["lib", "components", "app", "hooks", "bank", "bench", "scripts", "tests", "sim"],
      ),
    ).toEqual([]);
  });
});
