import { describe, expect, it } from "vitest";
import {
  csvField,
  HISTORY_CSV_COLUMNS,
  historyCsvFilename,
  historyToCsv,
  neutralizeFormula,
  parseCsv,
  signedAmount,
} from "../../lib/format/csv.ts";
import { historyItem } from "./history-fixtures.ts";

describe("CSV export of history", () => {
  it("starts with a header row and ends every line with CRLF", () => {
    const csv = historyToCsv([historyItem(), historyItem()]);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(HISTORY_CSV_COLUMNS.join(","));
    expect(lines).toHaveLength(4); // header, two rows, and the empty string after the last CRLF
    expect(lines[3]).toBe("");
    expect(csv.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  });

  it("writes a header alone when there are no rows", () => {
    expect(historyToCsv([])).toBe(`${HISTORY_CSV_COLUMNS.join(",")}\r\n`);
  });

  it("quotes fields with commas, quotes and line breaks, doubling the quotes (RFC 4180)", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
  });

  it("writes debits as negative and credits as positive decimal dollars, never through floats", () => {
    expect(signedAmount({ amountCents: 125_050, direction: "debit" })).toBe("-1250.50");
    expect(signedAmount({ amountCents: 30_010, direction: "credit" })).toBe("300.10");
    expect(signedAmount({ amountCents: 1, direction: "credit" })).toBe("0.01");
    expect(signedAmount({ amountCents: 900_719_925_474_099, direction: "debit" })).toBe("-9007199254740.99");
  });

  it("round-trips every field through a CSV parser, including awkward text", () => {
    const item = historyItem({
      direction: "debit",
      amountCents: 4_692_60,
      availableAfterCents: -5_00,
      description: 'SEN to 1234567890, "urgent"',
      descriptions: ['SEN to 1234567890, "urgent"', "line two\nwith break"],
      code: "9084",
      paymentId: "P123",
      idempotencyKey: "key-1",
      sen: {
        counterpartyAccount: "1234567890",
        counterpartyName: "GLOBEX SUPPLIES INC",
        memo: "Invoice 42, final",
        timestamp: "2026-11-20T14:03:00Z",
      },
    });
    const [header, row] = parseCsv(historyToCsv([item]));
    const record = Object.fromEntries(header.map((h, i) => [h, row[i]]));
    expect(record).toMatchObject({
      Date: "2026-11-20",
      Description: 'SEN to 1234567890, "urgent"',
      "Debit/Credit": "Debit",
      Amount: "-4692.60",
      "Balance after": "-5.00",
      "Transaction code": "9084",
      "Counterparty account": "1234567890",
      "Counterparty name": "GLOBEX SUPPLIES INC",
      Memo: "Invoice 42, final",
      "Payment ID": "P123",
      "Idempotency key": "key-1",
      "Unique ID": item.uniqueId,
      "Additional description": "line two\nwith break",
    });
  });

  it("keeps one CSV row per item, in the order given", () => {
    const items = Array.from({ length: 50 }, (_, i) => historyItem({ amountCents: i + 1 }));
    const rows = parseCsv(historyToCsv(items)).slice(1);
    expect(rows).toHaveLength(50);
    expect(rows.map((r) => r[4])).toEqual(items.map((i) => signedAmount(i)));
  });

  it("stops a description from running as a spreadsheet formula", () => {
    expect(neutralizeFormula('=HYPERLINK("x")')).toBe('\'=HYPERLINK("x")');
    expect(neutralizeFormula("+1")).toBe("'+1");
    expect(neutralizeFormula("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(neutralizeFormula("PAYROLL")).toBe("PAYROLL");
    const [, row] = parseCsv(historyToCsv([historyItem({ description: "=1+1" })]));
    expect(row[2]).toBe("'=1+1");
    // Amounts are numbers, not text, and keep their minus sign.
    const [, debit] = parseCsv(historyToCsv([historyItem({ direction: "debit" })]));
    expect(debit[4]).toBe("-123.45");
  });

  it("names the file after the account and the range", () => {
    expect(historyCsvFilename("1234567890", "2026-10-24", "2026-11-22")).toBe(
      "transactions-1234567890-2026-10-24-to-2026-11-22.csv",
    );
    expect(historyCsvFilename("12/34", "2026-10-24", "2026-11-22", true)).toBe(
      "transactions-1234-2026-10-24-to-2026-11-22-filtered.csv",
    );
  });
});
