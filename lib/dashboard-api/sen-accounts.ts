// Opening a SEN account: POST /api/accounts/sen, with the contract's createsen rules (whole
// dollars 1 to 999,999,999; title lines of at most 40 characters).
import { z } from "zod";
import { createSenRequest } from "../bank-api/accounts.ts";

const c = createSenRequest.shape;

/** Whole dollars as typed ("25,000") → the contract's number, with its limits. */
function dollarsText<S extends z.ZodType<number, number>>(contract: S) {
  return z
    .string({ error: "is required" })
    .transform((s, ctx) => {
      const t = s.replace(/[\s,$]/g, "");
      if (t === "") {
        ctx.addIssue({ code: "custom", message: "is required" });
        return z.NEVER;
      }
      if (!/^\d{1,12}$/.test(t)) {
        ctx.addIssue({ code: "custom", message: "must be whole dollars" });
        return z.NEVER;
      }
      return Number(t);
    })
    .pipe(contract);
}

export const CreateSenAccountRequest = z.object({
  ExpectedBalance: dollarsText(c.ExpectedBalance),
  ExpectedIncomingAmtMonth: dollarsText(c.ExpectedIncomingAmtMonth),
  ExpectedOutgoingAmtMonth: dollarsText(c.ExpectedOutgoingAmtMonth),
  AltTitleLine1: c.AltTitleLine1,
  AltTitleLine2: c.AltTitleLine2,
  AltTitleLine3: c.AltTitleLine3,
  AltTitleLine4: c.AltTitleLine4,
});
export type CreateSenAccountInput = z.input<typeof CreateSenAccountRequest>;

export const CreateSenAccountResponse = z.object({
  accountNumber: z.string(),
  message: z.string(),
});
export type CreateSenAccountResponse = z.infer<typeof CreateSenAccountResponse>;
