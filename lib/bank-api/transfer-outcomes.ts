// The rules of a SEN transfer as a caller meets them. The database decides a transfer in one
// statement (sen_transfer, bank/db/functions/ledger.sql) and answers with one
// result code; this table says what each code means on the wire: the business code and its
// wording, and the request field it names. A test reads the codes out of the database and
// checks that each one is here.
import type { BusinessErrorCode } from "./errors.ts";
import { BANK_HEADERS } from "./headers.ts";

export type TransferOutcome =
  | { kind: "ok"; rule: string }
  | { kind: "key_conflict"; rule: string; field: string; message: string }
  | { kind: "rejected"; rule: string; error: BusinessErrorCode; field: string };

/** Every result code of sen_transfer (the `sen_transfer_code` type), in the order they are checked. */
export const TRANSFER_OUTCOMES = {
  ok: { kind: "ok", rule: "money moved: both balances, both ledger entries, the notifications" },
  key_conflict: {
    kind: "key_conflict",
    rule: "the Idempotency-Key was first used with another request",
    field: BANK_HEADERS.idempotencyKey,
    message: "was already used with a different request body",
  },
  from_not_found: {
    kind: "rejected",
    rule: "the source account does not exist or is another customer's",
    error: "ACCOUNT_NOT_FOUND",
    field: "AccountNumberFrom",
  },
  to_not_found: {
    kind: "rejected",
    rule: "the destination account does not exist (it may be any customer's)",
    error: "ACCOUNT_NOT_FOUND",
    field: "AccountNumberTo",
  },
  same_account: {
    kind: "rejected",
    rule: "the two accounts are one",
    error: "SAME_ACCOUNT",
    field: "AccountNumberTo",
  },
  from_closed: {
    kind: "rejected",
    rule: "the source account is not open",
    error: "ACCOUNT_CLOSED",
    field: "AccountNumberFrom",
  },
  to_closed: {
    kind: "rejected",
    rule: "the destination account is not open",
    error: "ACCOUNT_CLOSED",
    field: "AccountNumberTo",
  },
  from_not_sen: {
    kind: "rejected",
    rule: "the source account is not on SEN",
    error: "ACCOUNT_NOT_SEN",
    field: "AccountNumberFrom",
  },
  to_not_sen: {
    kind: "rejected",
    rule: "the destination account is not on SEN",
    error: "ACCOUNT_NOT_SEN",
    field: "AccountNumberTo",
  },
  insufficient_funds: {
    kind: "rejected",
    rule: "the source's available balance is below the amount",
    error: "INSUFFICIENT_FUNDS",
    field: "Amount",
  },
} as const satisfies Record<string, TransferOutcome>;

export type TransferOutcomeCode = keyof typeof TRANSFER_OUTCOMES;

/** What sen_transfer answers for one transfer. */
export interface TransferAnswer {
  code: TransferOutcomeCode;
  /** The transfer that moved the money (with `ok`; on a replay, the first request's). */
  transferId?: string;
  /** Read back from an earlier request with the same Idempotency-Key. */
  replay?: boolean;
}
