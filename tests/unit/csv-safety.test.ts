// Every export, fed every text an outsider could put in front of a reader: each text cell comes
// out quoted and unable to start a formula in a spreadsheet, whichever separator it splits on.
import { describe, expect, it } from "vitest";
import { PAYMENT_RECORD_FIELDS, type PaymentRecord } from "../../lib/bank-api/payments.ts";
import type { AuditEntry } from "../../lib/dashboard-api/admin.ts";
import type { PaymentRow } from "../../lib/dashboard-api/payments.ts";
import { auditToCsv } from "../../lib/format/audit-csv.ts";
import { parseCsv } from "../../lib/format/csv.ts";
import { historyToCsv } from "../../lib/format/history-csv.ts";
import { paymentsToCsv } from "../../lib/format/payments-csv.ts";
import { expectSafeCsv, FORMULA_ATTACKS, formulaStarts } from "../helpers/csv-safety.ts";
import { historyItem } from "./history-fixtures.ts";

const historyWith = (s: string) =>
  historyItem({
    description: s,
    descriptions: [s, `ORIG:${s}`],
    code: s,
    paymentId: s,
    idempotencyKey: s,
    uniqueId: s,
    sen: { counterpartyAccount: s, counterpartyName: s, memo: s, timestamp: s },
  });

const paymentWith = (s: string): { row: PaymentRow; record: PaymentRecord } => ({
  row: {
    paymentId: s,
    status: s,
    direction: s,
    date: s,
    timestamp: s,
    amountCents: -1_250,
    counterparty: s,
    counterpartyAccount: s,
  } as PaymentRow,
  record: {
    ...(Object.fromEntries(PAYMENT_RECORD_FIELDS.map((f) => [f, s])) as Omit<PaymentRecord, "amount">),
    amount: 12.5,
  },
});

const auditWith = (s: string): AuditEntry => ({
  id: 1,
  at: s,
  actorId: s,
  actorEmail: s,
  action: s,
  target: s,
  result: s,
  detail: { label: s },
  ip: s,
});

describe("the checker of a safe CSV", () => {
  it("finds a formula a reader splitting on semicolons would start inside a quoted cell", () => {
    expect(formulaStarts('"1","ORIG:x;=cmd|\' /C calc\'!A0",2.00\r\n')).not.toEqual([]);
    expect(formulaStarts('"1","ORIG:x;\'=cmd|\' /C calc\'!A0",-2.00\r\n')).toEqual([]);
  });
});

describe.each(FORMULA_ATTACKS)("a text of %j", (attack) => {
  it("is quoted and neutralised in the history export, and amounts stay numbers", () => {
    const csv = historyToCsv([historyWith(attack), historyItem({ direction: "debit" })]);
    expectSafeCsv(csv, ["Amount", "Balance after"]);
    const rows = parseCsv(csv);
    expect(rows[2][rows[0].indexOf("Amount")]).toBe("-123.45");
  });

  it("is quoted and neutralised in the payments export", () => {
    const csv = paymentsToCsv([paymentWith(attack)]);
    expectSafeCsv(csv, ["Amount"]);
    expect(parseCsv(csv)[1][4]).toBe("-12.50");
  });

  it("is quoted and neutralised in the audit export", () => {
    expectSafeCsv(auditToCsv([auditWith(attack)]));
  });
});
