// E-wire summaries (specification, "E-wire summary record"). The numeric suffixes are part of the names.
import { z } from "zod";
import { LongErrorItemSchema } from "./errors.ts";
import { codeOf, queryInt32, requiredUnless, str, wireDate } from "./fields.ts";
import { noControlCharacters } from "./payments.ts";

const text = (max: number) => str(max).refine(noControlCharacters, "must not contain control characters");

const byDay = ["uniqueId", "transactionNumber"] as const;

export const wireSummaryQuery = requiredUnless(
  z.object({
    accountNumber: text(20).optional(),
    sequenceNumber: queryInt32().optional(),
    date: wireDate().optional(),
    sourceIndicator: codeOf(["I", "O"], "must be I or O").optional(),
    transactionNumber: text(20).optional(),
    uniqueId: text(1000).optional(),
  }),
  { accountNumber: byDay, date: byDay, sourceIndicator: byDay },
);
export type WireSummaryQuery = z.output<typeof wireSummaryQuery>;

export const EWIRE_STRING_FIELDS = [
  "TransactionNumber_1",
  "FedWireType_17",
  "FedwireSubType_18",
  "SourceIndicator_21",
  "ReferenceForBeneficiary_22",
  "SendingBankId_25",
  "SendingBankName_26",
  "OriginatorId_43",
  "Name_44",
  "BeneficiaryId_70",
  "Name_71",
  "OriginatorToBeneficiaryInfoLine1_96",
  "OriginatorToBeneficiaryInfoLine2_97",
  "OriginatorToBeneficiaryInfoLine3_98",
  "OriginatorToBeneficiaryInfoLine4_99",
  "ImadCycleDate_117",
  "ImadCalendarDate_118",
  "ImadApplicationId_119",
  "Imsn_120",
  "ImadLtermId_121",
  "ImadTime_122",
  "Status",
  "UniqueId",
] as const;

export const EwireSummarySchema = z.object({
  ...(Object.fromEntries(EWIRE_STRING_FIELDS.map((f) => [f, z.string()])) as {
    [K in (typeof EWIRE_STRING_FIELDS)[number]]: z.ZodString;
  }),
  Amount_12: z.number(),
});
export type EwireSummary = z.infer<typeof EwireSummarySchema>;

export const wireSummaryResponse = z.object({
  Errors: z.array(LongErrorItemSchema),
  SequenceNumber: z.number().int(),
  RecordCount: z.number().int(),
  EwireSummaries: z.array(EwireSummarySchema),
});
export type WireSummaryResponse = z.infer<typeof wireSummaryResponse>;
