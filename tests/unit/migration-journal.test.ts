// Drizzle's migrator applies a migration only when its journal time is later than the last one a
// database has applied: a migration renumbered after another branch's, but stamped earlier, would
// be skipped on every database that already has the other. Both journals stay in order.
import fs from "node:fs";
import { describe, expect, it } from "vitest";

describe("migration journals", () => {
  for (const journal of ["lib/db/migrations/meta/_journal.json", "bank/db/migrations/meta/_journal.json"]) {
    it(`${journal} numbers and stamps its migrations in one order`, () => {
      const { entries } = JSON.parse(fs.readFileSync(journal, "utf8")) as {
        entries: { idx: number; when: number; tag: string }[];
      };
      entries.forEach((e, i) => {
        expect(e.idx).toBe(i);
        expect(e.tag.startsWith(String(i).padStart(4, "0"))).toBe(true);
        if (i > 0)
          expect(e.when, `${e.tag} is stamped before ${entries[i - 1].tag}`).toBeGreaterThan(
            entries[i - 1].when,
          );
      });
    });
  }
});
