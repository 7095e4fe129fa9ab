// Gateway-level failures: thrown anywhere in a handler, turned into the gateway's bodies by the server
// (docs/decisions.md, "Gateway error bodies").
import type { FieldError } from "../../lib/bank-api/errors.ts";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (errors: FieldError[], message = "Invalid request information") =>
  new HttpError(400, message, errors);
export const badField = (field: string, message: string) => badRequest([{ field, message }]);
export const unauthorized = (message: string) => new HttpError(401, message);
export const unavailable = (message = "Host connection cannot be established") => new HttpError(503, message);
