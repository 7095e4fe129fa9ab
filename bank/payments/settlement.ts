// The simulated Fedwire: an In-Progress wire settles to Complete after the settlement delay
// (BANK_SETTLE_AFTER_SECONDS) or at once on POST /sandbox/settle. Settling posts the money
// into history and writes the e-wire summary, in one transaction per wire; the status moves
// with a conditional UPDATE, so a wire settles once however many instances run.

import { encodeUniqueId, TRAN_CODES } from "../../lib/bank-api/history.ts";
import { centsToDollars } from "../../lib/bank-api/money.ts";
import type { EwireSummary } from "../../lib/bank-api/wiresummary.ts";
import type { SqlRow } from "../../lib/server/sql-row.ts";
import type { Clock } from "../clock.ts";
import type { Bank } from "../context.ts";
import type { Queryable } from "../db/client.ts";
import type { accounts, payments } from "../db/schema.ts";
import { uniqueIdParts } from "../ledger/history.ts";
import {
  BANK_LTERM,
  formatPaymentTimestamp,
  ltermOf,
  type MessageReference,
  messageReference,
  nextPaymentTimestamp,
} from "./identity.ts";
import { PAYMENT_COLUMNS, type PaymentRow } from "./records.ts";
import { wireSystemStatus } from "./wire-system.ts";

/** The four 35-character info lines of an e-wire summary. */
function infoLines(text: string): [string, string, string, string] {
  const t = text ?? "";
  return [t.slice(0, 35), t.slice(35, 70), t.slice(70, 105), t.slice(105, 140)];
}

/** History text of a wire (docs/decisions.md, "History text and codes"): the payment id, then BENE:{name} on the debit, ORIG:{name} on the credit. */
function historyLines(p: PaymentRow, side: "debit" | "credit"): string[] {
  return side === "credit"
    ? [p.id, `ORIG:${p.details.originator_name ?? ""}`.slice(0, 40)]
    : [p.id, `BENE:${p.details.beneficiary_name ?? ""}`.slice(0, 40)];
}

interface SettledSide {
  account: string;
  source: "I" | "O";
  entry: Parameters<typeof uniqueIdParts>[0];
}

/** Releases the hold taken when the wire was sent and posts the debit (memo-posted, TRANCD 9095). */
async function postDebit(
  q: Queryable,
  p: PaymentRow,
  now: Date,
  date: string,
  key: string,
): Promise<SettledSide> {
  const lines = historyLines(p, "debit");
  const cents = p.amount_cents;
  const acct = await q.query<Pick<SqlRow<typeof accounts>, "available_cents">>(
    `UPDATE accounts SET current_cents = current_cents - $2, holds_cents = holds_cents - $2
     WHERE number = $1 RETURNING available_cents`,
    [p.account_number, cents],
  );
  const available = acct[0].available_cents;
  await q.query(
    `INSERT INTO ledger_entries (account_number, posted_at, tran_date, amount_cents, dr_cr, tran_code, descriptions,
       available_after_cents, idempotency_key, payment_id, memo_post)
     VALUES ($1, $2, $3, $4, 'D', $5, $6, $7, $8, $9, true)`,
    [p.account_number, now, date, cents, TRAN_CODES.WIRE_OUT, lines, available, key, p.id],
  );
  // Available does not move (it dropped when the funds were held): no notification is due.
  await q.query("SELECT enqueue_balance_change($1, $2, $2, $3)", [p.account_number, available, now]);
  return {
    account: p.account_number,
    source: "O",
    entry: {
      account_number: p.account_number,
      tran_date: date,
      amount_cents: cents,
      tran_code: TRAN_CODES.WIRE_OUT,
      descriptions: lines,
    },
  };
}

async function postCredit(
  q: Queryable,
  p: PaymentRow,
  account: string,
  now: Date,
  date: string,
): Promise<SettledSide> {
  const lines = historyLines(p, "credit");
  const cents = p.amount_cents;
  const r = await q.query<{ r: { status: string } }>(
    "SELECT post_entry($1, 'C', $2, $3, $4, $5, $6, $7, '') AS r",
    [account, cents, TRAN_CODES.WIRE_IN, lines, now, date, p.id],
  );
  if (r[0].r.status !== "ok")
    throw new Error(`wire ${p.id} could not be credited to ${account}: ${r[0].r.status}`);
  return {
    account,
    source: "I",
    entry: {
      account_number: account,
      tran_date: date,
      amount_cents: cents,
      tran_code: TRAN_CODES.WIRE_IN,
      descriptions: lines,
    },
  };
}

async function writeSummary(
  q: Queryable,
  p: PaymentRow,
  side: SettledSide,
  ref: MessageReference,
  transactionNumber: string,
): Promise<void> {
  const uniqueId = encodeUniqueId(uniqueIdParts(side.entry));
  const d = p.details;
  const info = infoLines(d.originator_to_beneficiary_info ?? d.originator_to_beneficiary_info_line ?? "");
  const record: EwireSummary = {
    TransactionNumber_1: transactionNumber,
    Amount_12: centsToDollars(p.amount_cents),
    FedWireType_17: p.fedwire_type,
    FedwireSubType_18: p.fedwire_sub_type,
    SourceIndicator_21: side.source,
    ReferenceForBeneficiary_22: d.reference_for_beneficiary ?? "",
    SendingBankId_25: d.sending_bank_id ?? "",
    SendingBankName_26: d.sending_bank_name ?? "",
    OriginatorId_43: d.originator_id ?? "",
    Name_44: d.originator_name ?? "",
    BeneficiaryId_70: d.beneficiary_id ?? "",
    Name_71: d.beneficiary_name ?? "",
    OriginatorToBeneficiaryInfoLine1_96: info[0],
    OriginatorToBeneficiaryInfoLine2_97: info[1],
    OriginatorToBeneficiaryInfoLine3_98: info[2],
    OriginatorToBeneficiaryInfoLine4_99: info[3],
    ImadCycleDate_117: ref.cycleDate,
    ImadCalendarDate_118: ref.calendarDate,
    ImadApplicationId_119: ref.applicationId,
    Imsn_120: ref.imsn,
    ImadLtermId_121: ref.lterm,
    ImadTime_122: ref.time,
    Status: "Complete",
    UniqueId: uniqueId,
  };
  await q.query(
    `INSERT INTO wire_summaries (transaction_number, payment_id, account_number, summary_date, source_indicator, unique_id, record)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      transactionNumber,
      p.id,
      side.account,
      side.entry.tran_date,
      side.source,
      uniqueId,
      JSON.stringify(record),
    ],
  );
}

const nextSequence = async (q: Queryable) =>
  (await q.query<{ n: number }>("SELECT nextval('wire_message_seq') AS n"))[0].n;

/** Settles one wire if it is still In-Progress with the timestamp read; true when this call settled it. */
export async function settleWire(q: Queryable, clock: Clock, p: PaymentRow): Promise<boolean> {
  const now = clock.now();
  const date = clock.businessDate(now);
  const seq = await nextSequence(q);
  const incoming = p.direction === "Incoming";
  const ref = messageReference(
    date,
    now,
    incoming ? ltermOf(p.details.sending_bank_id ?? "") : BANK_LTERM,
    seq,
  );
  const ts = nextPaymentTimestamp(p.status_timestamp, now);
  const claimed = await q.query<Pick<SqlRow<typeof payments>, "idempotency_key">>(
    `UPDATE payments SET status = 'Complete', status_timestamp = $1, completed_at = $2, imad = $3, omad = $4
     WHERE id = $5 AND status = 'In-Progress' AND status_timestamp = $6 RETURNING idempotency_key`,
    [ts, now, ref.imad, ref.omad, p.id, p.status_timestamp],
  );
  if (!claimed.length) return false;

  const trn = (n: number) => `${ref.cycleDate}${String(n).padStart(8, "0")}`;
  if (incoming) {
    await writeSummary(q, p, await postCredit(q, p, p.account_number, now, date), ref, trn(seq));
    return true;
  }
  if (p.return_of) {
    // A return sends back money that was never credited: nothing to post, only the message.
    const lines = historyLines(p, "debit");
    const entry = {
      account_number: p.account_number,
      tran_date: date,
      amount_cents: p.amount_cents,
      tran_code: TRAN_CODES.WIRE_OUT,
      descriptions: lines,
    };
    await writeSummary(q, p, { account: p.account_number, source: "O", entry }, ref, trn(seq));
    return true;
  }
  await writeSummary(q, p, await postDebit(q, p, now, date, claimed[0].idempotency_key ?? ""), ref, trn(seq));
  // A wire to another account of this bank is credited in the same transaction.
  const creditAccount = p.details.credit_account_id;
  if (p.direction === "Internal" && creditAccount) {
    await writeSummary(
      q,
      p,
      await postCredit(q, p, creditAccount, now, date),
      ref,
      trn(await nextSequence(q)),
    );
  }
  return true;
}

/**
 * Settles the In-Progress wires that are due (all of them with `all`); nothing moves while
 * the wire system is down. Returns how many this call settled.
 */
export async function settleDueWires(bank: Bank, opts: { all?: boolean } = {}): Promise<number> {
  if ((await wireSystemStatus(bank.db)) === "down") return 0;
  const cutoff = opts.all
    ? "9999-12-31 23:59:59.999"
    : formatPaymentTimestamp(new Date(bank.clock.now().getTime() - bank.config.settleAfterSeconds * 1000));
  let settled = 0;
  for (;;) {
    const due = await bank.db.query<PaymentRow>(
      `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE status = 'In-Progress' AND status_timestamp <= $1
       ORDER BY status_timestamp LIMIT 200`,
      [cutoff],
    );
    let progressed = 0;
    for (const p of due) {
      if (await bank.db.tx((q) => settleWire(q, bank.clock, p))) progressed++;
    }
    settled += progressed;
    // Credits moved available balances: wake the webhook dispatcher of this process at once.
    if (progressed) bank.events.emit("balance-changed");
    if (due.length < 200 || progressed === 0) return settled;
  }
}

/** The settlement timer: checks once a second (and when the sandbox moves the clock); stops with the bank. */
export function startSettlementTimer(bank: Bank): void {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = settleDueWires(bank)
      .catch((err) => bank.log.error("wire settlement failed", { err }))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, 1000);
  timer.unref();
  bank.events.on("clock-advanced", tick);
  bank.onClose(async () => {
    stopped = true;
    clearInterval(timer);
    bank.events.off("clock-advanced", tick);
    await running;
  });
}
