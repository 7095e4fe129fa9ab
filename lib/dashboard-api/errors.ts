// Every error from app/api/*: an HTTP status plus this body.
import * as z from "zod/mini";

export const FieldError = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldError>;

export const ApiErrorBody = z.object({
  error: z.object({
    /** unauthenticated, forbidden, invalid, not_found, conflict, bank_rejected, bank_unavailable, bank_error, locked, internal */
    code: z.string(),
    message: z.string(),
    fields: z.optional(z.array(FieldError)),
  }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

/** A state change with nothing to return. */
export const OkResponse = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof OkResponse>;
