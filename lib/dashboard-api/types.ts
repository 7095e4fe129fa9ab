// The dashboard's own JSON API (app/api/*): what route handlers return and pages read.
// Amounts are integer cents; dates are YYYY-MM-DD in the bank's business day.

import type { Role } from "../auth/permissions.ts";
import type { BalanceRecord } from "../bank-api/accounts.ts";

/** Every error from app/api/*: HTTP status plus this body. */
export interface ApiErrorBody {
  error: {
    /** unauthenticated, forbidden, invalid, not_found, bank_rejected, bank_unavailable, bank_error, locked, internal */
    code: string;
    message: string;
    fields?: { field: string; message: string }[];
  };
}

export interface AccountSummary {
  accountNumber: string;
  /** SHORTNAME */
  name: string;
  titleLines: string[];
  type: "DDA" | "SEN";
  productDescription: string;
  /** A word: Active, Closed, Dormant */
  status: string;
  availableCents: number;
  currentCents: number;
  holdsCents: number;
  lastDepositCents: number;
  lastDepositDate: string | null;
  openDate: string;
}

// GET /api/accounts
export interface AccountsResponse {
  accounts: AccountSummary[];
  totals: { availableCents: number; currentCents: number; holdsCents: number };
  asOf: string; // ISO instant
}

// GET /api/accounts/[accountNumber]
export interface AccountDetailResponse {
  account: AccountSummary;
  /** The bank's full balance record, as the contract types it. */
  balance: BalanceRecord;
  cashManager: { availableCents: number; openDate: string } | null;
  asOf: string;
}

export interface HistoryItem {
  /** Unique within the response (UniqueId can repeat for identical entries). */
  id: string;
  uniqueId: string;
  date: string;
  effectiveDate: string;
  amountCents: number;
  direction: "debit" | "credit";
  code: string;
  /** TRANDESC */
  description: string;
  /** Every non-empty description line, TRANDESC first. */
  descriptions: string[];
  availableAfterCents: number;
  paymentId: string | null;
  idempotencyKey: string | null;
  memoPosted: boolean;
  sen: { counterpartyAccount: string; counterpartyName: string; memo: string; timestamp: string } | null;
}

// GET /api/accounts/[accountNumber]/history?from=YYYY-MM-DD&to=YYYY-MM-DD&order=A|D
export interface HistoryResponse {
  accountNumber: string;
  from: string;
  to: string;
  order: "A" | "D";
  items: HistoryItem[];
  /** extendedhistory when the range call said MOREDATA=Y and the dashboard re-read day by day. */
  source: "history" | "extendedhistory";
  /** Days where even extendedhistory reached its 5,000-item cap. */
  truncatedDays: string[];
  notice?: string;
}

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  totpEnabled: boolean;
}

// GET /api/session: the idle guard's timing.
export interface SessionTiming {
  idleSeconds: number;
  warningSeconds: number;
  /** ISO instant of the last activity the server recorded. */
  lastActivity: string;
  signedInAt: string;
  /** ISO instant the 12-hour limit ends the session. */
  absoluteDeadline: string;
}

export interface AdminUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  disabled: boolean;
  /** Locked after repeated failed sign-ins; unlocks by itself. */
  locked: boolean;
  totpEnabled: boolean;
  lastSignInAt: string | null;
  createdAt: string;
}

// GET /api/admin/users
export interface AdminUsersResponse {
  users: AdminUser[];
}

// POST /api/admin/users: the temporary password is shown once, when none was chosen.
export interface CreateUserResponse {
  user: AdminUser;
  temporaryPassword?: string;
}

export interface AuditEntry {
  id: number;
  at: string;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  target: string | null;
  result: string;
  detail: Record<string, unknown> | null;
  ip: string | null;
}

// GET /api/admin/audit
export interface AuditResponse {
  entries: AuditEntry[];
}

// GET /api/profile/totp
export interface TotpStatus {
  enabled: boolean;
  pending: boolean;
}

// POST /api/profile/totp: the secret to enter in an authenticator app, shown until confirmed.
export interface TotpEnrolment {
  secret: string;
  otpauthUrl: string;
}

// GET /api/accounts/[accountNumber]/balance: one balance read, for tiles that refresh often.
export interface BalanceResponse {
  accountNumber: string;
  availableCents: number;
  currentCents: number;
  holdsCents: number;
  asOf: string;
}
