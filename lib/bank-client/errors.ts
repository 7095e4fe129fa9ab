// What can go wrong when the dashboard asks the bank: a value, never a thrown surprise.
import type { FieldError } from "../bank-api/errors.ts";

export type BankErrorKind =
  /** The bank refused a well-formed request: ERROR / Errors items, or a 400 with its field list. */
  | "rejected"
  /** The bank could not be reached, answered 503, timed out, or asks to wait for a new token. */
  | "unavailable"
  /** The bank answered something the contract does not allow, or refused the dashboard's credentials. */
  | "bank_error";

export interface BankError {
  kind: BankErrorKind;
  /** Plain words that can be shown to staff: never a key, a token or a stack. */
  message: string;
  status?: number;
  fields?: FieldError[];
  /** Seconds after which trying again makes sense (429 Retry-After, token interval). */
  retryAfter?: number;
}

export type BankResult<T> = { ok: true; data: T } | { ok: false; error: BankError };

export class BankCallError extends Error {
  constructor(readonly error: BankError) {
    super(error.message);
    this.name = "BankCallError";
  }
}

/** Unwraps a result for code paths where any bank failure ends the request (the route wrapper maps it). */
export function unwrap<T>(r: BankResult<T>): T {
  if (!r.ok) throw new BankCallError(r.error);
  return r.data;
}

export const unavailable = (message: string, retryAfter?: number): BankError => ({
  kind: "unavailable",
  message,
  retryAfter,
});
