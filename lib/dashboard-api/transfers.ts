// SEN transfers through the dashboard: POST /api/transfers. The form and the route handler parse
// with this one schema, built from the contract's transfer request (its limits, its field names,
// so the bank's field errors land on the right input).
import { z } from "zod";
import { idempotencyKey, transferSenRequest } from "../bank-api/transfers.ts";
import { FROM_DESCRIPTION_FIELDS, TO_DESCRIPTION_FIELDS } from "../forms/send-money-fields.ts";
import { moneyText } from "./money-input.ts";
import { Draft } from "./wires.ts";

const t = transferSenRequest.shape;

export { FROM_DESCRIPTION_FIELDS, TO_DESCRIPTION_FIELDS };

export const SenTransferRequest = z
  .object({
    /** One per form session, kept across retries: the bank acts once per key. */
    idempotencyKey: idempotencyKey,
    AccountNumberFrom: t.AccountNumberFrom,
    AccountNumberTo: t.AccountNumberTo,
    Amount: moneyText(t.Amount),
    SerialNumber1: t.SerialNumber1,
    SerialNumber2: t.SerialNumber2,
    AccountFromDescription2: t.AccountFromDescription2,
    AccountFromDescription3: t.AccountFromDescription3,
    AccountFromDescription4: t.AccountFromDescription4,
    AccountFromDescription5: t.AccountFromDescription5,
    AccountFromDescription6: t.AccountFromDescription6,
    AccountFromDescription7: t.AccountFromDescription7,
    AccountToDescription2: t.AccountToDescription2,
    AccountToDescription3: t.AccountToDescription3,
    AccountToDescription4: t.AccountToDescription4,
    AccountToDescription5: t.AccountToDescription5,
    AccountToDescription6: t.AccountToDescription6,
    AccountToDescription7: t.AccountToDescription7,
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
