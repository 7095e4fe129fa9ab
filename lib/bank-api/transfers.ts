// SEN transfers (specification, "Transfer request").
import { z } from "zod";
import { messageItemSchema, shortErrorItemSchema } from "./errors.ts";
import { amount, required, sequenceNumber, str } from "./fields.ts";
import { canonicalGuid } from "./guid.ts";

const desc = () => str(40).optional();

export const transferSenRequest = z.object({
  SequenceNumber: sequenceNumber().optional(),
  AccountNumberFrom: required(20),
  AccountNumberTo: required(20),
  /** Dollars on the wire; integer cents after parsing. */
  Amount: amount(13),
  SerialNumber1: str(15).optional(),
  SerialNumber2: str(15).optional(),
  AccountFromDescription2: desc(),
  AccountFromDescription3: desc(),
  AccountFromDescription4: desc(),
  AccountFromDescription5: desc(),
  AccountFromDescription6: desc(),
  AccountFromDescription7: desc(),
  AccountToDescription2: desc(),
  AccountToDescription3: desc(),
  AccountToDescription4: desc(),
  AccountToDescription5: desc(),
  AccountToDescription6: desc(),
  AccountToDescription7: desc(),
});
export type TransferSenRequest = z.output<typeof transferSenRequest>;
export type TransferSenInput = z.input<typeof transferSenRequest>;

export const transferSenResponse = z.object({
  SEQUENCE: z.number().int(),
  MESSAGE: z.array(messageItemSchema),
  ERROR: z.array(shortErrorItemSchema),
});
export type TransferSenResponse = z.infer<typeof transferSenResponse>;

/**
 * The `Idempotency-Key` header: a GUID or UUID (specification, Authentication 5), in any of its
 * spellings, read as its canonical form so that one key spelt two ways acts once.
 */
export const idempotencyKey = z.string().transform((s, ctx) => {
  const key = canonicalGuid(s);
  if (key === null) {
    ctx.addIssue({
      code: "custom",
      message: "must be a GUID (such as 0d2b0c9e-1111-4a2b-9c1d-aaaaaaaaaaaa)",
    });
    return z.NEVER;
  }
  return key;
});
