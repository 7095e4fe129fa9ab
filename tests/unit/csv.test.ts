import { describe, expect, it } from "vitest";
import {
  csvCents,
  csvDocument,
  csvLine,
  csvText,
  neutralizeFormula,
  parseCsv,
} from "../../lib/format/csv.ts";
import {
  HISTORY_CSV_COLUMNS,
  historyCsvFilename,
  historyToCsv,
  signedCents,
} from "../../lib/format/history-csv.ts";
import { historyItem } from "./history-fixtures.ts";

describe("the CSV writer", () => {
  it("quotes every text cell, doubling its quotes (RFC 4180), and writes our numbers bare", () => {
    expect(csvText("plain")).toBe('"plain"');
    expect(csvText("a,b")).toBe('"a,b"');
    expect(csvText('say "hi"')).toBe('"say ""hi"""');
    expect(csvText("two\nlines")).toBe('"two\nlines"');
    expect(csvText(null)).toBe('""');
    expect(csvLine(["1250.50", csvCents(-125_050), csvCents(0)])).toBe('"1250.50",-1250.50,0.00');
  });

  it("makes a number only from integer cents", () => {
    expect(() => csvCents(1.5)).toThrow(TypeError);
    expect(() => csvCents(Number.NaN)).toThrow(TypeError);
    expect(csvCents(900_719_925_474_099).text).toBe("9007199254740.99");
  });

  it("neutralises a formula at the start, after blanks and invisible characters, and in full-width forms", () => {
    expect(neutralizeFormula('=HYPERLINK("x")')).toBe('\'=HYPERLINK("x")');
    expect(neutralizeFormula("+1")).toBe("'+1");
    expect(neutralizeFormula("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(neutralizeFormula("  =1")).toBe("'  =1");
    expect(neutralizeFormula("\u200b=1")).toBe("'\u200b=1");
    expect(neutralizeFormula("＝1")).toBe("'＝1");
    expect(neutralizeFormula("－1")).toBe("'－1");
    expect(neutralizeFormula("PAYROLL - MONTHLY")).toBe("PAYROLL - MONTHLY");
    expect(neutralizeFormula("'=already text")).toBe("'=already text");
  });

  it("neutralises a formula a reader splitting on another separator would start mid-cell", () => {
    expect(csvText("ORIG:x;=cmd|' /C calc'!A0")).toBe("\"ORIG:x;'=cmd|' /C calc'!A0\"");
    expect(neutralizeFormula("a,=1")).toBe("a,'=1");
    expect(neutralizeFormula("a\t+1")).toBe("a\t'+1");
    expect(neutralizeFormula("a|@x")).toBe("a|'@x");
    expect(neutralizeFormula("a\n -1")).toBe("a\n' -1");
  });

  it("writes a header row and ends every line with CRLF", () => {
    expect(csvDocument(["A", "B"], [["x", csvCents(1)]])).toBe('"A","B"\r\n"x",0.01\r\n');
  });
});

describe("CSV export of history", () => {
  it("starts with a header row and ends every line with CRLF", () => {
    const csv = historyToCsv([historyItem(), historyItem()]);
    const lines = csv.split("\r\n");
    expect(parseCsv(lines[0])[0]).toEqual([...HISTORY_CSV_COLUMNS]);
    expect(lines).toHaveLength(4); // header, two rows, and the empty string after the last CRLF
    expect(lines[3]).toBe("");
    expect(csv.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
  });

  it("writes a header alone when there are no rows", () => {
    expect(historyToCsv([])).toBe(`${HISTORY_CSV_COLUMNS.map((c) => `"${c}"`).join(",")}\r\n`);
  });

  it("writes debits as negative and credits as positive decimal dollars, never through floats", () => {
    const amount = (amountCents: number, direction: "debit" | "credit") =>
      parseCsv(historyToCsv([historyItem({ amountCents, direction })]))[1][4];
    expect(amount(125_050, "debit")).toBe("-1250.50");
    expect(amount(30_010, "credit")).toBe("300.10");
    expect(amount(1, "credit")).toBe("0.01");
    expect(amount(900_719_925_474_099, "debit")).toBe("-9007199254740.99");
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
    expect(rows.map((r) => r[4])).toEqual(items.map((i) => csvCents(signedCents(i)).text));
  });

  it("stops a description from running as a spreadsheet formula, and keeps an amount's minus sign", () => {
    const [, row] = parseCsv(historyToCsv([historyItem({ description: "=1+1" })]));
    expect(row[2]).toBe("'=1+1");
    const debit = historyToCsv([historyItem({ direction: "debit" })])
      .split("\r\n")[1]
      .split(",");
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
