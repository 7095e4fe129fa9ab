// The rules that decide a draft live once (lib/approvals/draft-rules.ts): a second copy of the
// state list, of "does my approval send it?" or of the database's state check fails this test.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DRAFT_STATUS_CHECK_SQL, DRAFT_STATUSES } from "../../lib/approvals/draft-rules.ts";

const ROOT = path.resolve(__dirname, "../..");
const HOME = "lib/approvals/draft-rules.ts";

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "migrations" || e.name === "node_modules" ? [] : sources(rel);
    return /\.(ts|tsx)$/.test(e.name) ? [rel] : [];
  });
}

const COPIES = [
  /["']pending["'],\s*["']releasing["']/, // a state list
  /'pending'::text,\s*'releasing'::text/, // the SQL check written by hand
  /approvals\.length\s*\+\s*1/, // "does my approval send it?"
];

describe("draft rules, once", () => {
  it("has no second copy of a draft state list or of the approval arithmetic", () => {
    const found = ["lib", "components", "app", "hooks", "sim"]
      .flatMap(sources)
      .filter((f) => f !== HOME)
      .flatMap((f) => {
        const text = fs.readFileSync(path.join(ROOT, f), "utf8");
        return COPIES.filter((re) => re.test(text)).map((re) => `${f}: ${re}`);
      });
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
