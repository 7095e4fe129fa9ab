// The rules that decide a draft live once (lib/approvals/draft-rules.ts): a second copy of the
// state list, of "does my approval send it?" or of the database's state check fails this test.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DRAFT_STATUS_CHECK_SQL, DRAFT_STATUSES } from "../../lib/approvals/draft-rules.ts";
import { copiesOutside, ROOT } from "../helpers/copies.ts";

const HOME = "lib/approvals/draft-rules.ts";

const COPIES = [
  /["']pending["'],\s*["']releasing["']/, // a state list
  /'pending'::text,\s*'releasing'::text/, // the SQL check written by hand
  /approvals\.length\s*\+\s*1/, // "does my approval send it?"
];

describe("draft rules, once", () => {
  it("has no second copy of a draft state list or of the approval arithmetic", () => {
    const found = copiesOutside([HOME], COPIES);
    expect(found).toEqual([]);
  });

  it("builds the database's check from the one tuple", () => {
    for (const s of DRAFT_STATUSES) expect(DRAFT_STATUS_CHECK_SQL).toContain(`'${s}'::text`);
    const snapshot = fs
      .readdirSync(path.join(ROOT, "lib/db/migrations/meta"))
      .filter((f) => f.endsWith("_snapshot.json"))
      .sort()
      .at(-1) as string;
    const text = fs.readFileSync(path.join(ROOT, "lib/db/migrations/meta", snapshot), "utf8");
    expect(text).toContain(DRAFT_STATUS_CHECK_SQL);
  });
});
