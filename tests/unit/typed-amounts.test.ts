// Amounts as people type them: every field that takes dollars reads the same text the same way
// ("$1,250.50", "1 250.5", ".5", "20."), and refuses the same text ("12,50") with its own message.
import { describe, expect, it } from "vitest";
import { typedDollarsText, typedDollarsToCents } from "../../lib/bank-api/money.ts";
import { AlertRuleFormSchema, AlertRuleInputSchema } from "../../lib/dashboard-api/alerts.ts";
import { parseAmountFilter } from "../../lib/format/history-filters.ts";
import { dollarsInput } from "../../lib/forms/fields.ts";

const READ: [string, number][] = [
  ["1250", 125000],
  ["1,250.50", 125050],
  ["$1 250.5", 125050],
  [".5", 50],
  ["$.05", 5],
  ["20.", 2000],
  [" 0.01 ", 1],
  ["1 250 000", 125000000],
];
// A comma or blank that does not group by three is a typing slip ("12,50" meant as 12.50 would
// otherwise be read as 1,250.00): refused, never guessed.
const REFUSED = [
  "",
  ".",
  "-",
  "1.234",
  "1e3",
  "abc",
  "1.2.3",
  "--1",
  "$-.5x",
  "12,50",
  "1,23.00",
  "1,2345",
  ",100",
  "1$0",
];

describe("typed dollars", () => {
  it("reads the ways people write an amount", () => {
    for (const [text, cents] of READ) expect(typedDollarsToCents(text), text).toBe(cents);
    expect(typedDollarsText("-.5")).toBe("-0.5");
    expect(typedDollarsToCents("-$5")).toBe(-500);
    for (const text of REFUSED) expect(typedDollarsToCents(text), text).toBeNull();
  });

  it("the settings amounts take them, and name what is wrong", () => {
    const field = dollarsInput({ maxCents: 1_000_000_000 });
    for (const [text, cents] of READ) expect(field.safeParse(text), text).toMatchObject({ data: cents });
    const message = (text: string) => field.safeParse(text).error?.issues[0]?.message;
    expect(message(".")).toBe("Enter an amount in dollars, such as 1,250.00.");
    expect(message("1.234")).toBe("Use at most two decimals (whole cents).");
    expect(message("0")).toBe("The amount must be more than zero.");
    expect(message("-.5")).toBe("Enter an amount in dollars, such as 1,250.00.");
  });

  it("balance alert lines take them, and refuse the rest", () => {
    for (const [text, cents] of READ) {
      const r = AlertRuleInputSchema.safeParse({ below: text, notifyUsers: true });
      expect(r.success && r.data.belowCents, text).toBe(cents);
    }
    for (const text of [...REFUSED.filter((t) => t !== ""), "0", "-5"]) {
      const r = AlertRuleFormSchema.safeParse({ below: text, notifyUsers: true });
      expect(r.success, text).toBe(false);
      expect(r.error?.issues[0]).toMatchObject({
        path: ["below"],
        message: "Enter a positive amount in dollars with at most two decimals, like 1,250.00",
      });
    }
  });

  it("history's amount filters take them", () => {
    for (const [text, cents] of READ) expect(parseAmountFilter(text), text).toEqual({ ok: true, cents });
    expect(parseAmountFilter("1.234")).toMatchObject({ ok: false });
  });
});
