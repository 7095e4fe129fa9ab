// The statements' one range rule (lib/statements/query.ts): what the Statements form checks before
// it asks is what the download route answers 400 for, field by field; and neither keeps a copy.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { addDays } from "../../lib/bank-api/dates.ts";
import { checkStatementQuery, statementRange } from "../../lib/statements/query.ts";

const ROOT = path.resolve(__dirname, "../..");
const TODAY = "2026-03-10";
const check = (q: { account?: string[]; from?: string; to?: string }, known?: string[]) =>
  checkStatementQuery("bai2", q, TODAY, known);
const fields = (r: ReturnType<typeof check>) => (r.ok ? [] : r.fields.map((f) => f.field));

describe("the statement range rule", () => {
  it("takes real days, from on or before to, at most 93 days, 1 to 50 accounts", () => {
    expect(check({ account: ["1"], from: "2026-03-01", to: "2026-03-09" })).toEqual({
      ok: true,
      query: { accounts: ["1"], from: "2026-03-01", to: "2026-03-09" },
    });
    expect(fields(check({ account: ["1"], from: "2026-03-09", to: "2026-03-01" }))).toEqual(["from"]);
    expect(fields(check({ account: ["1"], from: addDays("2026-03-09", -92), to: "2026-03-09" }))).toEqual([]);
    const long = check({ account: ["1"], from: addDays("2026-03-09", -93), to: "2026-03-09" });
    expect(fields(long)).toEqual(["from"]);
    expect(long.ok ? "" : long.fields[0].message).toContain("93");
    expect(fields(check({ account: ["1"], from: "2026-02-01", to: "2026-02-30" }))).toEqual(["to"]);
    expect(fields(check({ account: ["1"], from: "yesterday", to: "2026-02-01" }))).toEqual(["from"]);
    expect(fields(check({ from: "2026-03-01", to: "2026-03-02" }))).toEqual(["account"]);
    expect(fields(check({ account: ["12a"], from: "2026-03-01", to: "2026-03-02" }))).toEqual(["account"]);
    const many = Array.from({ length: 51 }, (_, i) => String(i + 1));
    expect(fields(check({ account: many, from: "2026-03-01", to: "2026-03-02" }))).toEqual(["account"]);
  });

  it("refuses an account not the customer's where the list is known, and camt.052 reports today", () => {
    expect(fields(check({ account: ["1", "2"], from: TODAY, to: TODAY }, ["1", "3"]))).toEqual(["account"]);
    expect(fields(check({ account: ["1", "3"], from: TODAY, to: TODAY }, ["1", "3"]))).toEqual([]);
    expect(checkStatementQuery("camt052", { account: ["1,3"], from: "junk" }, TODAY)).toEqual({
      ok: true,
      query: { accounts: ["1", "3"], from: TODAY, to: TODAY },
    });
  });

  it("is the form's and the route's, with no copy of the 93 days or the span check elsewhere", () => {
    const form = fs.readFileSync(path.join(ROOT, "components/statements/statements-form.tsx"), "utf8");
    const exportTs = fs.readFileSync(path.join(ROOT, "lib/statements/export.ts"), "utf8");
    expect(form).toContain("checkStatementQuery(");
    expect(exportTs).toContain("checkStatementQuery(");
    for (const text of [form, exportTs]) {
      expect(text).not.toMatch(/\b93\b/);
      expect(text).not.toContain("spanProblem");
      expect(text).not.toContain("z.object(");
    }
  });
});

describe("the Statements form's ranges", () => {
  it("reports the previous business day: Friday on a Monday or a weekend, never an empty weekend day", () => {
    expect(statementRange("previous-business-day", "2026-11-30")).toEqual({
      from: "2026-11-27",
      to: "2026-11-27",
    });
    expect(statementRange("previous-business-day", "2026-11-28")).toEqual({
      from: "2026-11-27",
      to: "2026-11-27",
    });
    expect(statementRange("previous-business-day", "2026-11-29")).toEqual({
      from: "2026-11-27",
      to: "2026-11-27",
    });
    // Thanksgiving (Thursday 2026-11-26) is a Fed holiday: Friday's previous business day is Wednesday.
    expect(statementRange("previous-business-day", "2026-11-27")).toEqual({
      from: "2026-11-25",
      to: "2026-11-25",
    });
    expect(statementRange("previous-business-day", "2026-12-02")).toEqual({
      from: "2026-12-01",
      to: "2026-12-01",
    });
  });

  it("reads last week as the seven days before today and last month as the calendar month before", () => {
    expect(statementRange("last-week", "2026-11-30")).toEqual({ from: "2026-11-23", to: "2026-11-29" });
    expect(statementRange("last-month", "2026-03-15")).toEqual({ from: "2026-02-01", to: "2026-02-28" });
    expect(statementRange("last-month", "2026-01-02")).toEqual({ from: "2025-12-01", to: "2025-12-31" });
  });
});
