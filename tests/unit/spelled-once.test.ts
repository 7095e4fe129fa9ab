// Small rules spelled in one place: a query key of the dashboard's cache is named in
// lib/dashboard-api/query-keys.ts (a literal key elsewhere is one a refresh can miss), and a
// PostgreSQL test is skipped by one guard (PG_URL, tests/helpers/databases.ts), not by reading the
// environment again in its own words.
import { describe, expect, it } from "vitest";
import { copiesOutside } from "../helpers/copies.ts";

describe("spelled once", () => {
  it("names every query key in query-keys.ts", () => {
    expect(
      copiesOutside(
        ["lib/dashboard-api/query-keys.ts"],
        [/queryKey: \[\s*["'`]/],
        ["lib", "components", "app", "hooks"],
      ),
    ).toEqual([]);
  });

  it("skips a PostgreSQL test by PG_URL alone", () => {
    expect(copiesOutside(["tests/helpers/databases.ts"], [/skipIf\(!process\.env\./], ["tests"])).toEqual([]);
  });
});
