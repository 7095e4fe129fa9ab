// Incoming wires and the actions on them (PUT /v2/payment): approve, cancel or return, accepted
// only in Pre-Approval and only with the payment's current timestamp. The status changes with one
// conditional UPDATE, so of two racing actions exactly one wins.
import { randomUUID } from "node:crypto";
import type { FieldError } from "../../lib/bank-api/errors.ts";
import {
  FEDWIRE_SUB_TYPES,
  type PaymentAction,
  type PaymentActionQuery,
  type PaymentResponse,
  type PaymentStatus,
} from "../../lib/bank-api/payments.ts";
import type { SqlRow } from "../../lib/server/sql-row.ts";
import type { Clock } from "../clock.ts";
import type { Queryable } from "../db/client.ts";
import type { accounts } from "../db/schema.ts";
import { badRequest } from "../http/errors.ts";
import {
  BANK_ABA,
  BANK_ADDRESS,
  BANK_NAME,
  formatPaymentTimestamp,
  newPaymentId,
  nextPaymentTimestamp,
} from "./identity.ts";
import { rejectedPayment } from "./outgoing.ts";
import { PAYMENT_COLUMNS, type PaymentDetails, type PaymentRow } from "./records.ts";

const NEXT_STATUS: Record<PaymentAction, PaymentStatus> = {
  approve: "In-Progress",
  cancel: "Canceled",
  return: "Canceled",
};

/** A fictional correspondent that sends the sandbox's incoming wires unless told otherwise. */
const DEFAULT_SENDER = {
  routingId: "011000015",
  name: "FIRST EXAMPLE BANK",
  address: "1 HARBOR WAY BOSTON MA",
};

export interface IncomingWireInput {
  accountNumber: string;
  cents: number;
  originatorName?: string;
  originatorAccountNumber?: string;
  originatorAddress?: string;
  originatorBankRoutingId?: string;
  originatorBankName?: string;
  originatorToBeneficiaryInfo?: string;
  referenceForBeneficiary?: string;
}

/** An incoming wire from another bank, waiting in Pre-Approval for the beneficiary's decision. */
export async function createIncomingWire(
  q: Queryable,
  clock: Clock,
  input: IncomingWireInput,
): Promise<PaymentResponse | null> {
  const acct = await q.query<
    Pick<SqlRow<typeof accounts>, "customer_id" | "title_lines" | "short_name" | "type">
  >("SELECT customer_id, title_lines, short_name, type FROM accounts WHERE number = $1", [
    input.accountNumber,
  ]);
  if (!acct.length) return null;
  const a = acct[0];
  const now = clock.now();
  const date = clock.businessDate(now);
  const id = newPaymentId("I", date);
  const ts = formatPaymentTimestamp(now);
  const senderId = input.originatorBankRoutingId ?? DEFAULT_SENDER.routingId;
  const senderName = input.originatorBankName ?? DEFAULT_SENDER.name;
  const senderAddress = input.originatorBankRoutingId ? "" : DEFAULT_SENDER.address;
  const info = input.originatorToBeneficiaryInfo ?? "";
  const details: PaymentDetails = {
    swift_uetr: randomUUID(),
    reference_for_beneficiary: input.referenceForBeneficiary ?? "",
    senders_reference: `FT${id.slice(-12)}`,
    originator_to_beneficiary_info_line: info.slice(0, 35),
    originator_to_beneficiary_info: info,
    bank_to_bank_info_line1: "",
    sending_bank_type: "ABA",
    sending_bank_id: senderId,
    sending_bank_name: senderName,
    sending_bank_address: senderAddress,
    receiving_bank_type: "ABA",
    receiving_bank_id: BANK_ABA,
    receiving_bank_name: BANK_NAME,
    receiving_bank_address: BANK_ADDRESS,
    originator_type: "D",
    originator_id: input.originatorAccountNumber ?? "000123456789",
    originator_name: input.originatorName ?? "SANDBOX ORIGINATOR LLC",
    originator_address: input.originatorAddress ?? "",
    originating_bank_type: "ABA",
    originating_bank_id: senderId,
    originating_bank_name: senderName,
    originating_bank_address: senderAddress,
    beneficiary_type: "D",
    beneficiary_id: input.accountNumber,
    beneficiary_name: (a.title_lines[0] || a.short_name).slice(0, 35),
    beneficiary_country_code: "US",
    beneficiary_bank_type: "ABA",
    beneficiary_bank_id: BANK_ABA,
    beneficiary_bank_name: BANK_NAME,
    beneficiary_bank_address: BANK_ADDRESS,
    beneficiary_bank_country_code: "US",
    debit_account_id: input.originatorAccountNumber ?? "000123456789",
    credit_account_id: input.accountNumber,
  };
  await q.query(
    `INSERT INTO payments (id, customer_id, account_number, direction, status, status_timestamp, amount_cents,
       fedwire_type, fedwire_sub_type, payment_date, entry_at, details)
     VALUES ($1, $2, $3, 'Incoming', 'Pre-Approval', $4, $5, '10', '00', $6, $7, $8)`,
    [id, a.customer_id, input.accountNumber, ts, input.cents, date, now, JSON.stringify(details)],
  );
  return { payment_id: id, payment_status: "Pre-Approval", payment_timestamp: ts };
}

/** The return of a refused incoming wire: an outgoing wire back to its originator, same amount. */
async function createReturnWire(
  q: Queryable,
  clock: Clock,
  original: PaymentRow,
  now: Date,
): Promise<string> {
  const date = clock.businessDate(now);
  const id = newPaymentId("R", date);
  const d = original.details;
  const subType =
    original.payment_date === date ? FEDWIRE_SUB_TYPES.RETURN_SAME_DAY : FEDWIRE_SUB_TYPES.RETURN_LATER;
  const details: PaymentDetails = {
    swift_uetr: randomUUID(),
    reference_for_beneficiary: d.senders_reference ?? "",
    senders_reference: id,
    originator_to_beneficiary_info_line: `RETURN OF ${original.id}`,
    originator_to_beneficiary_info: `RETURN OF ${original.id}`,
    bank_to_bank_info_line1: `/RETN/ ${original.id}`,
    sending_bank_type: "ABA",
    sending_bank_id: BANK_ABA,
    sending_bank_name: BANK_NAME,
    sending_bank_address: BANK_ADDRESS,
    receiving_bank_type: d.sending_bank_type,
    receiving_bank_id: d.sending_bank_id,
    receiving_bank_name: d.sending_bank_name,
    receiving_bank_address: d.sending_bank_address,
    originator_type: "D",
    originator_id: original.account_number,
    originator_name: d.beneficiary_name,
    originator_address: d.beneficiary_address ?? "",
    originating_bank_type: "ABA",
    originating_bank_id: BANK_ABA,
    originating_bank_name: BANK_NAME,
    originating_bank_address: BANK_ADDRESS,
    beneficiary_type: d.originator_type,
    beneficiary_id: d.originator_id,
    beneficiary_name: d.originator_name,
    beneficiary_address: d.originator_address,
    beneficiary_country_code: "US",
    beneficiary_bank_type: d.sending_bank_type,
    beneficiary_bank_id: d.sending_bank_id,
    beneficiary_bank_name: d.sending_bank_name,
    beneficiary_bank_address: d.sending_bank_address,
    beneficiary_bank_country_code: "US",
    debit_account_id: original.account_number,
    credit_account_id: d.originator_id,
  };
  await q.query(
    `INSERT INTO payments (id, customer_id, account_number, direction, status, status_timestamp, amount_cents,
       fedwire_type, fedwire_sub_type, payment_date, entry_at, return_of, details)
     VALUES ($1, $2, $3, 'Outgoing', 'In-Progress', $4, $5, '10', $6, $7, $8, $9, $10)`,
    [
      id,
      original.customer_id,
      original.account_number,
      formatPaymentTimestamp(now),
      original.amount_cents,
      subType,
      date,
      now,
      original.id,
      JSON.stringify(details),
    ],
  );
  return id;
}

/** Why an action cannot apply to this payment as it stands: 400 items naming the query field. */
function refusalReasons(p: PaymentRow, query: PaymentActionQuery): FieldError[] {
  const errors: FieldError[] = [];
  if (p.direction !== "Incoming") {
    errors.push({ field: "action", message: "only an incoming wire can be approved, canceled or returned" });
  } else if (p.status !== "Pre-Approval") {
    errors.push({
      field: "action",
      message: `the payment is ${p.status}; actions are accepted only in Pre-Approval`,
    });
  }
  if (p.status_timestamp !== query.timestamp) {
    errors.push({
      field: "timestamp",
      message: "is not the payment's current payment_timestamp; read the payment again",
    });
  }
  return errors;
}

/**
 * Looks the payment up for an action: a business rejection (unknown account or payment) as a
 * response, a malformed or stale action as a thrown 400, else the payment row.
 */
export async function checkPaymentAction(
  q: Queryable,
  customerId: number,
  query: PaymentActionQuery,
): Promise<{ rejected: PaymentResponse } | { payment: PaymentRow }> {
  const owned = await q.query("SELECT 1 FROM accounts WHERE number = $1 AND customer_id = $2", [
    query.account_number,
    customerId,
  ]);
  if (!owned.length) return { rejected: rejectedPayment("ACCOUNT_NOT_FOUND", "account_number") };
  const rows = await q.query<PaymentRow>(
    `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = $1 AND account_number = $2 AND customer_id = $3`,
    [query.payment_id, query.account_number, customerId],
  );
  if (!rows.length) return { rejected: rejectedPayment("PAYMENT_NOT_FOUND", "payment_id") };
  const errors = refusalReasons(rows[0], query);
  if (errors.length) throw badRequest(errors, "The payment action cannot be applied");
  return { payment: rows[0] };
}

/** Applies approve, cancel or return. Run inside a transaction when the action is `return`. */
export async function applyPaymentAction(
  q: Queryable,
  clock: Clock,
  customerId: number,
  query: PaymentActionQuery,
): Promise<PaymentResponse> {
  const now = clock.now();
  const status = NEXT_STATUS[query.action];
  const ts = nextPaymentTimestamp(query.timestamp, now);
  const rows = await q.query<PaymentRow>(
    `UPDATE payments SET status = $1, status_timestamp = $2,
       canceled_at = CASE WHEN $1 = 'Canceled' THEN $3::timestamptz ELSE canceled_at END
     WHERE id = $4 AND account_number = $5 AND customer_id = $6 AND direction = 'Incoming'
       AND status = 'Pre-Approval' AND status_timestamp = $7
     RETURNING ${PAYMENT_COLUMNS}`,
    [status, ts, now, query.payment_id, query.account_number, customerId, query.timestamp],
  );
  if (!rows.length) {
    // Lost a race or never applicable: say why, from the payment as it now stands.
    const check = await checkPaymentAction(q, customerId, query);
    if ("rejected" in check) return check.rejected;
    throw badRequest(
      [{ field: "timestamp", message: "the payment changed meanwhile; read it again" }],
      "The payment action cannot be applied",
    );
  }
  if (query.action === "return") await createReturnWire(q, clock, rows[0], now);
  return { payment_id: rows[0].id, payment_status: status, payment_timestamp: ts, Errors: [] };
}
