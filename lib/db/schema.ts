// The dashboard's own tables (docs/architecture.md): users, the append-only audit log, the shared
// bank access token and the sign-in throttle. The dashboard never reads bank tables.
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  /** Stored lower-case: sign-in matches e-mail addresses regardless of case. */
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  role: text("role").notNull(),
  /** argon2id hash; never leaves the server. */
  passwordHash: text("password_hash").notNull(),
  disabled: boolean("disabled").notNull().default(false),
  failedAttempts: integer("failed_attempts").notNull().default(0),
  lockedUntil: ts("locked_until"),
  /** Base32 TOTP secret, set once enrolment is confirmed. */
  totpSecret: text("totp_secret"),
  /** A secret shown on /profile and not yet confirmed with a code. */
  totpPendingSecret: text("totp_pending_secret"),
  /** Last accepted TOTP time step: a code is accepted once (replay protection). */
  totpLastStep: integer("totp_last_step"),
  lastSignInAt: ts("last_sign_in_at"),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/** Append-only (a trigger refuses UPDATE and DELETE): who did what, when, and the result. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: ts("at").notNull().defaultNow(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    target: text("target"),
    /** ok, denied, failed, or the bank's answer in a word. */
    result: text("result").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>(),
    ip: text("ip"),
  },
  (t) => [index("audit_log_at_idx").on(t.at)],
);

/**
 * One bank access token per subscription key (by SHA-256), shared by every dashboard instance:
 * the bank issues one token per key per 5 minutes, so instances must not each ask for their own.
 */
export const bankTokens = pgTable("bank_tokens", {
  keyHash: text("key_hash").primaryKey(),
  token: text("token"),
  issuedAt: ts("issued_at"),
  expiresAt: ts("expires_at"),
  /** Not before this instant may a new token be requested (interval rule, or a 429's Retry-After). */
  nextRequestAt: ts("next_request_at"),
  requests: integer("requests").notNull().default(0),
});

/** Sign-in attempts per client address per minute window. */
export const signInThrottle = pgTable(
  "sign_in_throttle",
  {
    ip: text("ip").notNull(),
    windowStart: ts("window_start").notNull(),
    attempts: integer("attempts").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.ip, t.windowStart] })],
);

/**
 * A payment waiting for a second person: an outgoing wire, or a SEN transfer above the release
 * threshold. Its id is the Idempotency-Key of the bank call that releases it, so it pays once.
 */
export const paymentDrafts = pgTable(
  "payment_drafts",
  {
    id: uuid("id").primaryKey(),
    kind: text("kind").notNull(),
    /** pending → releasing → released | failed; pending → rejected. */
    status: text("status").notNull().default("pending"),
    /** Raised by every change, so a release names the version its approver saw. */
    version: integer("version").notNull().default(1),
    fromAccount: text("from_account").notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    /** Beneficiary name (wire) or destination account (SEN), for lists. */
    counterparty: text("counterparty").notNull(),
    /** The bank request body as the contract writes it. */
    request: jsonb("request").$type<Record<string, unknown>>().notNull(),
    preparedBy: text("prepared_by").notNull(),
    preparedByEmail: text("prepared_by_email").notNull(),
    preparedAt: ts("prepared_at").notNull().defaultNow(),
    decidedBy: text("decided_by"),
    decidedByEmail: text("decided_by_email"),
    decidedAt: ts("decided_at"),
    rejectReason: text("reject_reason"),
    paymentId: text("payment_id"),
    bankAnswer: jsonb("bank_answer").$type<Record<string, unknown>>(),
  },
  (t) => [index("payment_drafts_status_idx").on(t.status, t.preparedAt)],
);

/** Saved wire beneficiaries that fill the wire form. */
export const beneficiaries = pgTable("beneficiaries", {
  id: uuid("id").primaryKey(),
  label: text("label").notNull(),
  fields: jsonb("fields").$type<Record<string, string>>().notNull(),
  createdBy: text("created_by").notNull(),
  createdByEmail: text("created_by_email").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/** Settings an administrator changes at run time; a key with no row has its default (lib/settings.ts). */
export const dashboardSettings = pgTable("dashboard_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedBy: text("updated_by"),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});
