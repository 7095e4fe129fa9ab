// Outgoing wires: validated by the contract, then one SQL statement checks the originator
// account, holds the funds, writes the payment and queues the balance notification.
import { type BusinessErrorCode, longError } from "../../lib/bank-api/errors.ts";
import type { InitiatePaymentRequest, PaymentResponse, PaymentStatus } from "../../lib/bank-api/payments.ts";
import type { Clock } from "../clock.ts";
import type { Queryable } from "../db/client.ts";
import { BANK_ABA, formatPaymentTimestamp, newPaymentId } from "./identity.ts";
import { outgoingDetails, type PaymentDetails, type PaymentDirection } from "./records.ts";

/** What initiate_wire answers and an Idempotency-Key record keeps (endpoint `payment`). */
export type InitiateResult =
  | {
      status: "ok";
      payment_id: string;
      payment_status: PaymentStatus;
      payment_timestamp: string;
      replay?: boolean;
    }
  | {
      status: "rejected";
      code: BusinessErrorCode;
      field: string;
      payment_id?: string;
      payment_status?: PaymentStatus | "";
      payment_timestamp?: string;
      replay?: boolean;
    }
  | { status: "key_conflict" };

export type InitiateOutcome = { kind: "response"; response: PaymentResponse } | { kind: "key_conflict" };

/** A refused request: empty payment fields and the reason in `Errors`. */
export function rejectedPayment(
  code: BusinessErrorCode,
  field: string,
  payment?: Partial<PaymentResponse>,
): PaymentResponse {
  return {
    payment_id: payment?.payment_id ?? "",
    payment_status: payment?.payment_status ?? "",
    payment_timestamp: payment?.payment_timestamp ?? "",
    Errors: [longError(code, field)],
  };
}

/**
 * Internal when the wire is routed to this bank (its ABA as receiving or beneficiary bank) and
 * the beneficiary account is one of its open accounts: settled as a book transfer.
 */
export async function wireDirection(q: Queryable, b: InitiatePaymentRequest): Promise<PaymentDirection> {
  const toThisBank =
    b.receiving_bank_routing_id === BANK_ABA ||
    (b.beneficiary_bank_routing_id === BANK_ABA && (b.beneficiary_bank_type ?? "ABA") === "ABA");
  if (!toThisBank) return "Outgoing";
  const rows = await q.query("SELECT 1 FROM accounts WHERE number = $1 AND status = 'A'", [
    b.beneficiary_account_number,
  ]);
  return rows.length ? "Internal" : "Outgoing";
}

export async function initiateWire(
  q: Queryable,
  clock: Clock,
  args: {
    customerId: number;
    body: InitiatePaymentRequest;
    idempotencyKey?: string | null;
    requestHash?: string | null;
    /** A payment id reserved by POST /v2/payment/backup: the Pre-Approval row moves on instead of a new one. */
    reservedId?: string;
  },
): Promise<InitiateOutcome> {
  const now = clock.now();
  const date = clock.businessDate(now);
  const id = args.reservedId ?? newPaymentId("O", date);
  const details: PaymentDetails = outgoingDetails(args.body);
  const rows = await q.query<{ r: InitiateResult }>(
    "SELECT initiate_wire($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) AS r",
    [
      args.customerId,
      args.body.originator_account_number,
      args.body.amount,
      args.idempotencyKey ?? null,
      args.idempotencyKey ? args.requestHash : null,
      now,
      formatPaymentTimestamp(now),
      date,
      id,
      JSON.stringify(details),
      await wireDirection(q, args.body),
      !!args.reservedId,
    ],
  );
  return initiateOutcome(rows[0].r);
}

/** The caller's answer to a fresh or remembered initiate result. */
export function initiateOutcome(r: InitiateResult): InitiateOutcome {
  if (r.status === "key_conflict") return { kind: "key_conflict" };
  if (r.status === "rejected") return { kind: "response", response: rejectedPayment(r.code, r.field, r) };
  return {
    kind: "response",
    response: {
      payment_id: r.payment_id,
      payment_status: r.payment_status,
      payment_timestamp: r.payment_timestamp,
      Errors: [],
    },
  };
}
