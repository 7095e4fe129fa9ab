// Opening a SEN account: POST /api/accounts/sen, with the contract's createsen rules (whole
// dollars 1 to 999,999,999; title lines of at most 40 characters).
import { z } from "zod";
import { createSenRequest } from "../bank-api/accounts.ts";
import { typedDollars } from "./money-input.ts";

const c = createSenRequest.shape;

/** Whole dollars as typed ("25,000") → the contract's number, with its limits. */
const dollarsText = <S extends z.ZodType<number, number>>(contract: S) =>
  typedDollars(contract, { whole: true });

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
