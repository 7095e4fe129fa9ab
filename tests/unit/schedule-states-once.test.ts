// The words of a payment series live once (lib/schedules/states.ts): a second hand-written list
// of its states, its occurrences' states or its rolls, or a database check that does not come
// from them, fails this test.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkOneOf,
  OCCURRENCE_STATUSES,
  ROLLS,
  SERIES_KINDS,
  SERIES_STATUSES,
} from "../../lib/schedules/states.ts";
import { copiesOutside, ROOT } from "../helpers/copies.ts";

const HOMES = ["lib/schedules/states.ts", "lib/bank-api/business-days.ts"];

const COPIES = [
  /\[\s*["']active["'],\s*["']paused["']/, // a series state list
  /["']due["'],\s*["']sending["']/, // an occurrence state list
  /\[\s*["']following["'],\s*["']preceding["']\s*\]/, // the roll list
  /'active'::text|'due'::text|'following'::text/, // a SQL check written by hand
  /status IN \('active', 'paused'\)/, // the live states in SQL by hand
];

describe("schedule words, once", () => {
  it("has no second copy of a series, occurrence or roll word list", () => {
    const found = copiesOutside(HOMES, COPIES);
    expect(found).toEqual([]);
  });

  it("builds the database's checks from the tuples, as the migrations wrote them", () => {
    const text = fs.readFileSync(path.join(ROOT, "lib/db/migrations/0019_schedules.sql"), "utf8");
    for (const check of [
      checkOneOf("kind", SERIES_KINDS),
      checkOneOf("status", SERIES_STATUSES),
      checkOneOf("roll", ROLLS),
      checkOneOf("status", OCCURRENCE_STATUSES),
    ])
      expect(text).toContain(check);
  });
});
