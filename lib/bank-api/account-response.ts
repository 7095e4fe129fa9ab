// The account side's answer (specification, "Accounts" and "Transaction history"): the request's
// sequence number echoed as SEQUENCE, the data as ResponseData, and long-form ERROR items.
import { z } from "zod";
import { type LongErrorItem, LongErrorItemSchema } from "./errors.ts";

export const accountResponse = <T extends z.ZodType>(responseData: T) =>
  z.object({ SEQUENCE: z.number().int(), ResponseData: responseData, ERROR: z.array(LongErrorItemSchema) });

const recordPageHead = { RECS_RETURNED: z.number().int(), MOREDATA: z.string() };

/** Pages of records under `name`, each with how many it returned and whether more wait (MOREDATA). */
export const recordPages = <K extends string, T extends z.ZodType>(name: K, record: T) =>
  z.array(
    z.object({
      ...recordPageHead,
      ...({ [name]: z.array(record) } as { [P in K]: z.ZodArray<T> }),
    }),
  );

/** An answer of record pages without the records (left out of the checked copy), for a reader checking them one by one. */
export const recordPagesAnswerHead = accountResponse(z.array(z.object(recordPageHead)));
export type RecordPageHead = z.output<typeof recordPagesAnswerHead>["ResponseData"][number];

/** An answer as the bank writes it: the sequence number echoed, the data, and the errors (none by default). */
export function accountAnswer<T>(sequence: number, responseData: T, errors: LongErrorItem[] = []) {
  return { SEQUENCE: sequence, ResponseData: responseData, ERROR: errors };
}
