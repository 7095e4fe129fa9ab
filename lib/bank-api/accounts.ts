// Account list, balance, cash-manager balance and SEN account creation (specification, "Accounts").
import { z } from "zod";
import { accountResponse, recordPages } from "./account-response.ts";
import { LongErrorItemSchema } from "./errors.ts";
import { contractShape, queryInt32, required, sequenceNumber } from "./fields.ts";
import { CREATE_SEN_FIELDS } from "./rules.ts";

/** Account numbers travel as strings of at most 20 characters. */
export const accountNumber = () => required(20);

// GET /v2/account/list
export const accountListQuery = z.object({ sequenceNumber: queryInt32().optional() });

export const CustAcctSchema = z.object({
  APPLCD: z.string(),
  APPLDESC: z.string(),
  ACTNBR: z.string(),
  PRODTYPE: z.string(),
  PRODDESC: z.string(),
  RELTYPE: z.string(),
  RELTYPEDSC: z.string(),
  ACTSTATUS: z.string(),
  LGLTTLLN1: z.string(),
  LGLTTLLN2: z.string(),
  LGLTTLLN3: z.string(),
  LGLTTLLN4: z.string(),
  LGLTTLLN5: z.string(),
  LGLTTLLN6: z.string(),
  SHORTNAME: z.string(),
});
export type CustAcct = z.infer<typeof CustAcctSchema>;

export const accountListResponse = accountResponse(recordPages("CUSTACCT", CustAcctSchema));
export type AccountListResponse = z.infer<typeof accountListResponse>;

// GET /v2/account/balance and /v2/account/cashmanagerbalance
export const balanceQuery = z.object({
  accountNumber: accountNumber(),
  sequenceNumber: queryInt32().optional(),
});

export const BALANCE_STRING_FIELDS = [
  "ACTNBR",
  "SHORTNAME",
  "ACTOPNDT",
  "OFFICERCD",
  "LSTDEPDT",
  "STATUS",
  "STATDESC",
  "LSTSTMTDT",
  "OFFICERCD2",
  "RRSAVAFLG",
  "DYNAVAFLG",
  "DDAVAFLG",
  "LNAVAFLG",
  "ODLMTFLG",
  "CUSTFLTFLG",
  "BNKFLTFLG",
  "HOLDSFLAG",
  "CHKSPDTDY",
] as const;
export const BALANCE_NUMBER_FIELDS = [
  "AVAILBAL",
  "CURRBAL",
  "TOTALHOLDS",
  "ACCRINT",
  "YTDINT",
  "LSTDEPAMT",
  "LSTSTMTBAL",
  "RRSAVAAMT",
  "DYNAVAAMT",
  "DDAVAAMT",
  "LNAVAAMT",
  "ODLMTAMT",
  "CUSTFLTAMT",
  "BNKFLTAMT",
  "HOLDSAMT",
  "CHKSPDTDYA",
] as const;

export const BalanceRecordSchema = z.object({
  ...Object.fromEntries(BALANCE_STRING_FIELDS.map((f) => [f, z.string()])),
  ...Object.fromEntries(BALANCE_NUMBER_FIELDS.map((f) => [f, z.number()])),
  AVGROLBAL: z.record(z.string(), z.unknown()),
  AVGROLCOL: z.record(z.string(), z.unknown()),
}) as z.ZodObject<
  { [K in (typeof BALANCE_STRING_FIELDS)[number]]: z.ZodString } & {
    [K in (typeof BALANCE_NUMBER_FIELDS)[number]]: z.ZodNumber;
  } & { AVGROLBAL: z.ZodRecord<z.ZodString, z.ZodUnknown>; AVGROLCOL: z.ZodRecord<z.ZodString, z.ZodUnknown> }
>;
export type BalanceRecord = z.infer<typeof BalanceRecordSchema>;

export const balanceResponse = accountResponse(z.array(BalanceRecordSchema));
export type BalanceResponse = z.infer<typeof balanceResponse>;

export const cashManagerBalanceResponse = accountResponse(
  z.object({ AvailableBalance: z.number(), OpenDate: z.string() }).nullable(),
);
export type CashManagerBalanceResponse = z.infer<typeof cashManagerBalanceResponse>;

// POST /v2/account/createsen
export { EXPECTED_AMOUNT_MAX } from "./rules.ts";
export const createSenRequest = z.object({
  // The machine schema requires it, the field table calls it optional: the bank accepts both.
  SequenceNumber: sequenceNumber().optional(),
  // Only `S` is created; a missing or other value is forced to `S`.
  AccountType: z.string().max(1, "must be 1 character").optional(),
  ...contractShape(CREATE_SEN_FIELDS),
});
export type CreateSenRequest = z.infer<typeof createSenRequest>;

export const createSenResponse = z.object({
  SequenceNumber: z.number().int(),
  AccountNumber: z.string(),
  Errors: z.array(LongErrorItemSchema),
  Message: z.string(),
});
export type CreateSenResponse = z.infer<typeof createSenResponse>;
