import { describe, expect, it } from "vitest";
import {
  defaultHistoryView,
  filterHistory,
  hasActiveFilters,
  historyViewToSearch,
  MAX_RANGE_DAYS,
  parseAmountFilter,
  parseHistoryView,
  validateRange,
} from "../../lib/history/filters.ts";
import { historyItem } from "./history-fixtures.ts";

const none = { q: "", dir: "all", min: "", max: "" } as const;

describe("history filters", () => {
  const payroll = historyItem({
    direction: "debit",
    amountCents: 250_000,
    description: "PAYROLL ADP",
    descriptions: ["PAYROLL ADP", "BATCH 7781"],
  });
  const deposit = historyItem({ direction: "credit", amountCents: 4_500, description: "DEPOSIT ACME CORP" });
  const sen = historyItem({
    direction: "credit",
    amountCents: 100_000,
    code: "9084",
    description: "SEN from 2000000001",
    descriptions: ["SEN from 2000000001"],
    paymentId: "PAY77",
    sen: {
      counterpartyAccount: "2000000001",
      counterpartyName: "GLOBEX SUPPLIES INC",
      memo: "Invoice 42",
      timestamp: "",
    },
  });
  const items = [payroll, deposit, sen];

  it("shows everything, in the loaded order, when no filter is set", () => {
    expect(filterHistory(items, none)).toEqual(items);
    expect(hasActiveFilters(none)).toBe(false);
  });

  it("keeps only debits or only credits", () => {
    expect(filterHistory(items, { ...none, dir: "debit" })).toEqual([payroll]);
    expect(filterHistory(items, { ...none, dir: "credit" })).toEqual([deposit, sen]);
  });

  it("searches every description line, the counterparty and the payment id, ignoring case", () => {
    expect(filterHistory(items, { ...none, q: "batch 7781" })).toEqual([payroll]);
    expect(filterHistory(items, { ...none, q: "globex" })).toEqual([sen]);
    expect(filterHistory(items, { ...none, q: "invoice" })).toEqual([sen]);
    expect(filterHistory(items, { ...none, q: "pay77" })).toEqual([sen]);
    expect(filterHistory(items, { ...none, q: "nothing like this" })).toEqual([]);
  });

  it("requires every word of the search to match", () => {
    expect(filterHistory(items, { ...none, q: "deposit acme" })).toEqual([deposit]);
    expect(filterHistory(items, { ...none, q: "deposit globex" })).toEqual([]);
  });

  it("bounds the amount in dollars, inclusively, on the absolute amount", () => {
    expect(filterHistory(items, { ...none, min: "1000" })).toEqual([payroll, sen]);
    expect(filterHistory(items, { ...none, max: "45" })).toEqual([deposit]);
    expect(filterHistory(items, { ...none, min: "1,000.00", max: "$2,499.99" })).toEqual([sen]);
  });

  it("ignores a malformed amount bound instead of hiding everything", () => {
    expect(filterHistory(items, { ...none, min: "abc" })).toEqual(items);
    expect(parseAmountFilter("abc").ok).toBe(false);
    expect(parseAmountFilter("12.345").ok).toBe(false);
    expect(parseAmountFilter("-5").ok).toBe(false);
    expect(parseAmountFilter("")).toEqual({ ok: true, cents: null });
    expect(parseAmountFilter("$1,250.5")).toEqual({ ok: true, cents: 125_050 });
  });

  it("combines filters", () => {
    expect(filterHistory(items, { q: "sen", dir: "credit", min: "500", max: "" })).toEqual([sen]);
    expect(filterHistory(items, { q: "sen", dir: "debit", min: "", max: "" })).toEqual([]);
  });

  it("filters 5,000 rows by words, direction and amount", () => {
    const many = Array.from({ length: 5000 }, (_, i) =>
      historyItem({ description: `SEN to ${i}`, direction: i % 2 ? "debit" : "credit" }),
    );
    const shown = filterHistory(many, { q: "sen 12", dir: "debit", min: "1", max: "" });
    // The odd numbers below 5,000 whose digits hold "12", counted without the filter.
    let expected = 0;
    for (let i = 1; i < 5000; i += 2) if (String(i).includes("12")) expected++;
    expect(shown).toHaveLength(expected);
    expect(shown.every((s) => s.direction === "debit" && s.description.includes("12"))).toBe(true);
  });
});

describe("history view in the URL", () => {
  const today = "2026-11-22";

  it("defaults to the last 30 days, newest first, no filters", () => {
    expect(parseHistoryView(new URLSearchParams(""), today)).toEqual({
      ...defaultHistoryView(today),
      from: "2026-10-24",
      to: "2026-11-22",
      order: "D",
    });
  });

  it("reads every parameter back from a shared link", () => {
    const view = parseHistoryView(
      new URLSearchParams(
        "from=2026-11-01&to=2026-11-15&order=a&q=acme%20corp&dir=credit&min=10&max=2000.50",
      ),
      today,
    );
    expect(view).toEqual({
      from: "2026-11-01",
      to: "2026-11-15",
      order: "A",
      q: "acme corp",
      dir: "credit",
      min: "10",
      max: "2000.50",
    });
    expect(parseHistoryView(new URLSearchParams(historyViewToSearch(view)), today)).toEqual(view);
  });

  it("keeps broken or reversed dates as written, for the form to explain, and defaults the rest", () => {
    const view = parseHistoryView(new URLSearchParams("from=2026-02-30&to=nope&order=X&dir=sideways"), today);
    expect(view).toMatchObject({ from: "2026-02-30", to: "nope", order: "D", dir: "all" });
    expect(validateRange(view.from, view.to)).toEqual({
      from: "Enter a start date as a real day (YYYY-MM-DD).",
      to: "Enter an end date as a real day (YYYY-MM-DD).",
    });
    const reversed = parseHistoryView(new URLSearchParams("from=2026-11-10&to=2026-11-01"), today);
    expect(reversed).toMatchObject({ from: "2026-11-10", to: "2026-11-01" });
    expect(validateRange(reversed.from, reversed.to).from).toMatch(/on or before/);
    const endOnly = parseHistoryView(new URLSearchParams("to=2026-11-01"), today);
    expect(endOnly).toMatchObject({ from: "2026-10-03", to: "2026-11-01" });
  });

  it("leaves neutral filters out of the address", () => {
    expect(historyViewToSearch(defaultHistoryView(today))).toBe("from=2026-10-24&to=2026-11-22&order=D");
  });

  it("explains a range it cannot load", () => {
    expect(validateRange("2026-11-01", "2026-11-30")).toEqual({});
    expect(validateRange("", "2026-11-30").from).toBeTruthy();
    expect(validateRange("2026-11-30", "2026-11-01").from).toMatch(/on or before/);
    expect(validateRange("2010-01-01", "2027-11-30").from).toContain(String(MAX_RANGE_DAYS));
  });
});
