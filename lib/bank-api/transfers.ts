// SEN transfers (specification, "Transfer request").
import { z } from "zod";
import { MessageItemSchema, ShortErrorItemSchema } from "./errors.ts";
import { contractShape, sequenceNumber } from "./fields.ts";
import { canonicalGuid, GUID_PATTERN } from "./guid.ts";
import { SEN_TRANSFER_FIELDS } from "./rules.ts";

export const transferSenRequest = z.object({
  SequenceNumber: sequenceNumber().optional(),
  // Dollars on the wire, integer cents after parsing; each field's limit in rules.ts.
  ...contractShape(SEN_TRANSFER_FIELDS),
});
export type TransferSenRequest = z.output<typeof transferSenRequest>;
export type TransferSenInput = z.input<typeof transferSenRequest>;

export const transferSenResponse = z.object({
  SEQUENCE: z.number().int(),
  MESSAGE: z.array(MessageItemSchema),
  ERROR: z.array(ShortErrorItemSchema),
});
export type TransferSenResponse = z.infer<typeof transferSenResponse>;

/**
 * The `Idempotency-Key` header: a GUID or UUID (specification, Authentication 5), in any of its
 * spellings, read as its canonical form so that one key spelt two ways acts once.
 */
export const idempotencyKey = z
  .string()
  .transform((s, ctx) => {
    const key = canonicalGuid(s);
    if (key === null) {
      ctx.addIssue({
        code: "custom",
        message: "must be a GUID (such as 0d2b0c9e-1111-4a2b-9c1d-aaaaaaaaaaaa)",
      });
      return z.NEVER;
    }
    return key;
  })
  .meta({
    pattern: GUID_PATTERN,
    description: "A GUID in any spelling: letter case, braces or parentheses, all hyphens or none",
  });
