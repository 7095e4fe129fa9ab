// The dashboard API's error bodies (lib/dashboard-api/index.ts ApiErrorBody) and the mapping of
// bank failures onto them: ERROR items → 422 bank_rejected, 503/timeouts → 503 bank_unavailable,
// a contract breach → 502 bank_error.
import type { z } from "zod";
import type { BankError } from "../bank-client/errors.ts";
import type { ApiErrorBody } from "../dashboard-api/index.ts";

export class RouteError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: { field: string; message: string }[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "RouteError";
  }
}

export const unauthenticated = (message = "Sign in to continue.") =>
  new RouteError(401, "unauthenticated", message);
export const forbidden = (message = "Your role does not allow this.") =>
  new RouteError(403, "forbidden", message);
export const notFound = (message = "Not found.", fields?: { field: string; message: string }[]) =>
  new RouteError(404, "not_found", message, fields);
export const invalid = (
  fields: { field: string; message: string }[],
  message = "Some fields need attention.",
) => new RouteError(400, "invalid", message, fields);
export const conflict = (message: string, fields?: { field: string; message: string }[]) =>
  new RouteError(409, "conflict", message, fields);

export function fieldsOf(issues: readonly z.core.$ZodIssue[]): { field: string; message: string }[] {
  return issues.map((i) => ({
    field: i.path.length ? i.path.map(String).join(".") : "body",
    message: i.message,
  }));
}

export function fromBankError(e: BankError): RouteError {
  switch (e.kind) {
    case "rejected":
      return new RouteError(422, "bank_rejected", e.message, e.fields);
    case "unavailable":
      return new RouteError(
        503,
        "bank_unavailable",
        e.message,
        undefined,
        e.retryAfter ? { "Retry-After": String(e.retryAfter) } : undefined,
      );
    default:
      return new RouteError(502, "bank_error", e.message);
  }
}

export function errorBody(
  code: string,
  message: string,
  fields?: { field: string; message: string }[],
): ApiErrorBody {
  return { error: { code, message, ...(fields?.length ? { fields } : {}) } };
}
