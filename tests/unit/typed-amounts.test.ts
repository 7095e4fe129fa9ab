// Amounts as people type them: every field that takes dollars reads the same text the same way
// ("$1,250.50", "1 250.5", ".5", "20."), and refuses the same text ("12,50") with its own message.
import { describe, expect, it } from "vitest";
import { AlertRuleFormSchema, AlertRuleInputSchema } from "../../lib/dashboard-api/alerts.ts";
import { CreateSenAccountRequest, SenTransferRequest } from "../../lib/dashboard-api/index.ts";
import { dollarsInput } from "../../lib/form-rules/settings-form.ts";
import {
  MISPLACED_SEPARATOR_RULE,
  MISPLACED_SEPARATOR_SENTENCE,
  misplacedSeparator,
  typedDollarsText,
  typedDollarsToCents,
} from "../../lib/form-rules/typed-dollars.ts";
import { parseAmountFilter } from "../../lib/history/filters.ts";

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
const REFUSED = ["", ".", "-", "1.234", "1e3", "abc", "1.2.3", "--1", "$-.5x", "1$0"];
// Of those, the ones that are amounts but for where a comma or blank stands: every field names
// that slip in its own words.
const MISGROUPED = ["12,50", "$ 12,50", "-12,50", "1,23.00", "1,2345", ",100", "25,00", "1 2"];

describe("typed dollars", () => {
  it("reads the ways people write an amount", () => {
    for (const [text, cents] of READ) expect(typedDollarsToCents(text), text).toBe(cents);
    expect(typedDollarsText("-.5")).toBe("-0.5");
    expect(typedDollarsToCents("-$5")).toBe(-500);
    for (const text of [...REFUSED, ...MISGROUPED]) expect(typedDollarsToCents(text), text).toBeNull();
    for (const text of MISGROUPED) expect(misplacedSeparator(text), text).toBe(true);
    for (const text of [...REFUSED, ...READ.map(([t]) => t)])
      expect(misplacedSeparator(text), text).toBe(false);
  });

  it("the settings amounts take them, and name what is wrong", () => {
    const field = dollarsInput({ maxCents: 1_000_000_000 });
    for (const [text, cents] of READ) expect(field.safeParse(text), text).toMatchObject({ data: cents });
    const message = (text: string) => field.safeParse(text).error?.issues[0]?.message;
    expect(message(".")).toBe("Enter an amount in dollars, such as 1,250.00.");
    expect(message("1.234")).toBe("Use at most two decimals (whole cents).");
    expect(message("0")).toBe("The amount must be more than zero.");
    expect(message("-.5")).toBe("Enter an amount in dollars, such as 1,250.00.");
    for (const text of MISGROUPED) expect(message(text), text).toBe(MISPLACED_SEPARATOR_SENTENCE);
  });

  it("balance alert lines take them, and refuse the rest", () => {
    for (const [text, cents] of READ) {
      const r = AlertRuleInputSchema.safeParse({ below: text, notifyUsers: true });
      expect(r.success && r.data.belowCents, text).toBe(cents);
    }
    for (const text of [...REFUSED.filter((t) => t !== ""), "0", "-5", ...MISGROUPED]) {
      const r = AlertRuleFormSchema.safeParse({ below: text, notifyUsers: true });
      expect(r.success, text).toBe(false);
      expect(r.error?.issues[0], text).toMatchObject({
        path: ["below"],
        message: MISGROUPED.includes(text)
          ? MISPLACED_SEPARATOR_SENTENCE
          : text === "1.234"
            ? "Use at most two decimals (whole cents)."
            : text === "0"
              ? "The amount must be more than zero."
              : "Enter an amount in dollars, such as 1,250.00.",
      });
    }
  });

  it("history's amount filters take them", () => {
    for (const [text, cents] of READ) expect(parseAmountFilter(text), text).toEqual({ ok: true, cents });
    expect(parseAmountFilter("1.234")).toMatchObject({
      ok: false,
      message: "Use at most two decimals (whole cents).",
    });
    for (const text of MISGROUPED)
      expect(parseAmountFilter(text), text).toEqual({ ok: false, message: MISPLACED_SEPARATOR_SENTENCE });
  });

  it("the send forms name a misplaced separator, and only that", () => {
    const transfer = {
      idempotencyKey: "0d2b0c9e-1111-4a2b-9c1d-aaaaaaaaaaaa",
      AccountNumberFrom: "1",
      AccountNumberTo: "2",
    };
    const amountMessage = (Amount: string) =>
      SenTransferRequest.safeParse({ ...transfer, Amount }).error?.issues.find((i) => i.path[0] === "Amount")
        ?.message;
    for (const text of MISGROUPED) expect(amountMessage(text), text).toBe(MISPLACED_SEPARATOR_RULE);
    expect(amountMessage("12.345")).toBe("must be an amount in dollars, at most two decimals");
    expect(amountMessage("1,250.50")).toBeUndefined();
    const seed = (text: string) =>
      CreateSenAccountRequest.safeParse({ ExpectedBalance: text }).error?.issues.find(
        (i) => i.path[0] === "ExpectedBalance",
      )?.message;
    expect(seed("25,00")).toBe(MISPLACED_SEPARATOR_RULE);
    expect(seed("25.5")).toBe("must be whole dollars");
  });
});
