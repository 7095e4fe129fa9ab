// Accounts, balances and history as the dashboard's own API serves them (app/api/accounts/*).
// Amounts are integer cents; dates are YYYY-MM-DD in the bank's business day.
import { z } from "zod";
import { BalanceRecordSchema } from "../bank-api/accounts.ts";

const cents = z.number().int();
const instant = z.string();

export const AccountSummary = z.object({
  accountNumber: z.string(),
  /** SHORTNAME */
  name: z.string(),
  titleLines: z.array(z.string()),
  type: z.enum(["DDA", "SEN"]),
  productDescription: z.string(),
  /** A word: Active, Closed, Dormant */
  status: z.string(),
  availableCents: cents,
  currentCents: cents,
  holdsCents: cents,
  lastDepositCents: cents,
  lastDepositDate: z.string().nullable(),
  openDate: z.string(),
});
export type AccountSummary = z.infer<typeof AccountSummary>;

// GET /api/accounts
export const AccountsResponse = z.object({
  accounts: z.array(AccountSummary),
  totals: z.object({ availableCents: cents, currentCents: cents, holdsCents: cents }),
  asOf: instant,
});
export type AccountsResponse = z.infer<typeof AccountsResponse>;

// GET /api/accounts/morning: the change since the previous business day's close, money in and out today.
export const MorningCheckAccount = z.object({
  accountNumber: z.string(),
  /** Credits minus debits since the previous business day closed: today's balance minus that close. */
  changeCents: cents,
  inCents: cents,
  outCents: cents,
  inCount: z.number().int(),
  outCount: z.number().int(),
  /** False when a day held more entries than the bank returns (its 5,000-item cap). */
  complete: z.boolean(),
});
export const MorningCheckResponse = z.object({
  /** Today in the business time zone. */
  today: z.string(),
  /** The previous business day, whose close the change is measured from. */
  since: z.string(),
  accounts: z.array(MorningCheckAccount),
  totals: z.object({ changeCents: cents, inCents: cents, outCents: cents }),
  complete: z.boolean(),
});
export type MorningCheckResponse = z.infer<typeof MorningCheckResponse>;

// GET /api/accounts/[accountNumber]
export const AccountDetailResponse = z.object({
  account: AccountSummary,
  /** The bank's full balance record, as the contract types it. */
  balance: BalanceRecordSchema,
  cashManager: z.object({ availableCents: cents, openDate: z.string() }).nullable(),
  asOf: instant,
});
export type AccountDetailResponse = z.infer<typeof AccountDetailResponse>;

// GET /api/accounts/[accountNumber]/balance: one balance read, for tiles that refresh often.
export const BalanceResponse = z.object({
  accountNumber: z.string(),
  availableCents: cents,
  currentCents: cents,
  holdsCents: cents,
  asOf: instant,
});
export type BalanceResponse = z.infer<typeof BalanceResponse>;

export const HistoryItem = z.object({
  /** Unique within the response (UniqueId can repeat for identical entries). */
  id: z.string(),
  uniqueId: z.string(),
  date: z.string(),
  effectiveDate: z.string(),
  amountCents: cents,
  direction: z.enum(["debit", "credit"]),
  code: z.string(),
  /** TRANDESC */
  description: z.string(),
  /** Every non-empty description line, TRANDESC first. */
  descriptions: z.array(z.string()),
  availableAfterCents: cents,
  paymentId: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  memoPosted: z.boolean(),
  sen: z
    .object({
      counterpartyAccount: z.string(),
      counterpartyName: z.string(),
      memo: z.string(),
      timestamp: z.string(),
    })
    .nullable(),
});
export type HistoryItem = z.infer<typeof HistoryItem>;

// GET /api/accounts/[accountNumber]/history?from=YYYY-MM-DD&to=YYYY-MM-DD&order=A|D
export const HistoryResponse = z.object({
  accountNumber: z.string(),
  from: z.string(),
  to: z.string(),
  order: z.enum(["A", "D"]),
  items: z.array(HistoryItem),
  /** extendedhistory when the range call said MOREDATA=Y and the dashboard re-read day by day. */
  source: z.enum(["history", "extendedhistory"]),
  /** Days where even extendedhistory reached its 5,000-item cap. */
  truncatedDays: z.array(z.string()),
  notice: z.string().optional(),
});
export type HistoryResponse = z.infer<typeof HistoryResponse>;
