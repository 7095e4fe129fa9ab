// Transaction history (specification, "History" and "Transaction-history record").
import { z } from "zod";
import { accountResponse, recordPages } from "./account-response.ts";
import { codeOf, queryInt32, required, requiredUnless, str, wireDate } from "./fields.ts";

/** The specification's limits: about 520 items per history call, about 5,000 per extendedhistory day. */
export const HISTORY_MAX_ITEMS = 520;
export const EXTENDED_HISTORY_MAX_ITEMS = 5000;

const displayOrder = () => codeOf(["A", "D"], "must be A or D");

/** A UniqueId as the document states it: Base64 of a JSON object with these text fields. */
const UNIQUE_ID_FIELDS = [
  "AccountNumber",
  "TransactionDate",
  "TransactionAmount",
  "TransactionCode",
  "Description",
  "ExtendedDescriptionLine2",
] as const;
const UniqueIdJsonSchema = {
  pattern: "^[A-Za-z0-9+/=]+$",
  contentEncoding: "base64",
  contentMediaType: "application/json",
  contentSchema: {
    type: "object",
    required: [...UNIQUE_ID_FIELDS],
    properties: Object.fromEntries(UNIQUE_ID_FIELDS.map((k) => [k, { type: "string" }])),
  },
};

export const historyQuery = requiredUnless(
  z.object({
    accountNumber: str(20).optional(),
    sequenceNumber: queryInt32().optional(),
    beginDate: wireDate().optional(),
    endDate: wireDate().meta({ "x-not-before": "beginDate" }).optional(),
    displayOrder: displayOrder().optional(),
    uniqueId: str(1000).meta(UniqueIdJsonSchema).optional(),
    paymentId: str(20).optional(),
  }),
  { accountNumber: ["uniqueId"] },
);
export type HistoryQuery = z.output<typeof historyQuery>;

export const extendedHistoryQuery = z.object({
  accountNumber: required(20),
  sequenceNumber: queryInt32().optional(),
  date: wireDate().optional(),
  displayOrder: displayOrder().optional(),
});
export type ExtendedHistoryQuery = z.output<typeof extendedHistoryQuery>;

export const SenTransferResponseSchema = z.object({
  CounterPartyAccountNumber: z.string(),
  Timestamp: z.string(),
  SenderMemo: z.string(),
  CounterPartyLegalName: z.string(),
});

export const TRANDESC_FIELDS = [
  "TRANDESC",
  "TRANDESCS",
  "TRANDESC3",
  "TRANDESC4",
  "TRANDESC5",
  "TRANDESC6",
  "TRANDESC7",
  "TRANDESC8",
  "TRANDESC9",
  "TRANDESC10",
  "TRANDESC11",
] as const;

export const TransactionSchema = z.object({
  TRANDATE: z.string(),
  TRANCD: z.string(),
  TRANAMT: z.number(),
  CHECKNBR: z.string(),
  IDEMPOTENCYKEY: z.string(),
  TRANDESC: z.string(),
  TRANDESCS: z.string(),
  TRANDESC3: z.string(),
  TRANDESC4: z.string(),
  TRANDESC5: z.string(),
  TRANDESC6: z.string(),
  TRANDESC7: z.string(),
  TRANDESC8: z.string(),
  TRANDESC9: z.string(),
  TRANDESC10: z.string(),
  TRANDESC11: z.string(),
  EFFDATE: z.string(),
  CURRAVAILBAL: z.number(),
  TRANCDX: z.string(),
  MEMOPSTIND: z.string(),
  DRCRFLAG: z.string(),
  IMAGEFLAG: z.string(),
  ORIGPROCDT: z.string(),
  ORIGSRC: z.string(),
  ORIGSUBSRC: z.string(),
  UniqueId: z.string(),
  PaymentId: z.string(),
  SenTransferResponse: SenTransferResponseSchema.nullable(),
});
export type Transaction = z.infer<typeof TransactionSchema>;

export const historyResponse = accountResponse(recordPages("TRANSACTION", TransactionSchema));
export type HistoryResponse = z.infer<typeof historyResponse>;

/** Transaction codes the public record shows (docs/decisions.md), plus the bank's own for deposits and incoming wires. */
export const TRAN_CODES = {
  SEN_API: "9084",
  SEN_PORTAL: "9028",
  WIRE_OUT: "9095",
  WIRE_IN: "9096",
  DEPOSIT: "1100",
} as const;

/** UniqueId: Base64 of a JSON object (docs/decisions.md, "UniqueId"). */
export interface UniqueIdParts {
  AccountNumber: string;
  TransactionDate: string; // yyyyMMdd
  TransactionAmount: string; // "4692.60"
  TransactionCode: string;
  Description: string;
  ExtendedDescriptionLine2: string;
}

export function encodeUniqueId(p: UniqueIdParts): string {
  const ordered: UniqueIdParts = {
    AccountNumber: p.AccountNumber,
    TransactionDate: p.TransactionDate,
    TransactionAmount: p.TransactionAmount,
    TransactionCode: p.TransactionCode,
    Description: p.Description,
    ExtendedDescriptionLine2: p.ExtendedDescriptionLine2,
  };
  return Buffer.from(JSON.stringify(ordered), "utf8").toString("base64");
}

export function decodeUniqueId(id: string): UniqueIdParts | null {
  try {
    if (!/^[A-Za-z0-9+/=]+$/.test(id)) return null;
    const obj = JSON.parse(Buffer.from(id, "base64").toString("utf8")) as Record<string, unknown>;
    for (const k of UNIQUE_ID_FIELDS) if (typeof obj[k] !== "string") return null;
    return obj as unknown as UniqueIdParts;
  } catch {
    return null;
  }
}
