// SEN transfers through the dashboard: POST /api/transfers. The route handler parses with this
// schema, and the form loads the same one on first use: the contract's transfer request (its
// limits, its field names, so the bank's field errors land on the right input) with the amount
// typed as text and the form session's key.
import { z } from "zod";
import { idempotencyKey, transferSenRequest } from "../bank-api/transfers.ts";
import { typedDollars } from "./money-input.ts";
import { Draft } from "./wires.ts";

export const SenTransferRequest = transferSenRequest
  .omit({ SequenceNumber: true })
  .extend({
    /** One per form session, kept across retries: the bank acts once per key. */
    idempotencyKey: idempotencyKey,
    Amount: typedDollars(transferSenRequest.shape.Amount),
  })
  .refine((v) => v.AccountNumberFrom.trim() !== v.AccountNumberTo.trim(), {
    path: ["AccountNumberTo"],
    message: "must differ from the account the money comes from",
  });
export type SenTransferInput = z.input<typeof SenTransferRequest>;
export type SenTransferValues = z.output<typeof SenTransferRequest>;

export const SenTransferResponse = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("completed"),
    idempotencyKey: z.string(),
    amountCents: z.number().int(),
    from: z.string(),
    to: z.string(),
    /** The bank's MESSAGE texts (they name the transfer id). */
    messages: z.array(z.string()),
    /** The source account's available balance read after the transfer, when the bank answered. */
    fromAvailableCents: z.number().int().nullable(),
    /** True when the answer came from looking the key up after the bank did not answer. */
    foundByLookup: z.boolean(),
  }),
  z.object({ outcome: z.literal("draft"), draft: Draft }),
]);
export type SenTransferResponse = z.infer<typeof SenTransferResponse>;
