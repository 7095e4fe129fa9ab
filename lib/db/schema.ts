// The dashboard's own tables (docs/architecture.md): users, the append-only audit log, the shared
// bank access token, the sign-in throttle, live events, balance alerts and incoming-wire
// decisions. The dashboard never reads bank tables.

import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { DRAFT_STATUS_CHECK_SQL } from "../approvals/draft-rules.ts";
import type { Roll } from "../bank-api/business-days.ts";
import {
  checkOneOf,
  OCCURRENCE_STATUSES,
  type OccurrenceStatus,
  OPEN_OCCURRENCE_STATUSES,
  ROLLS,
  SERIES_KINDS,
  SERIES_STATUSES,
  type SeriesKind,
  type SeriesStatus,
  SWEEP_DIRECTIONS,
  SWEEP_MOVE_STATUSES,
  SWEEP_STATUSES,
  type SweepDirection,
  type SweepMoveStatus,
  type SweepStatus,
  sqlWords,
} from "../schedules/states.ts";

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
  /** Set by an administrator's password reset: the user chooses a new one before anything else. */
  passwordMustChange: boolean("password_must_change").notNull().default(false),
  /** Sessions signed in before this instant are over: the password was changed or reset then. */
  sessionsFrom: ts("sessions_from"),
  /** The sign-in time (seconds) of the session that changed its own password: it goes on. */
  keptSessionSignedInAt: bigint("kept_session_signed_in_at", { mode: "number" }),
  /**
   * The last invitation, reset, password set by one-time link or second factor removed by link:
   * for a day after it the user casts no vote that moves money (lib/auth/credential-embargo.ts).
   */
  credentialsChangedAt: ts("credentials_changed_at"),
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
/**
 * Actions audited as done once, whoever answers: the first `ok` entry of an action on a target
 * claims its row here (appendAuditOnce), and a later answer to the same request is audited as a
 * repeat. A SEN transfer's form sent again after its connection dropped gets the bank's first
 * answer again; it is one transfer.
 */
export const auditOnce = pgTable(
  "audit_once",
  {
    action: text("action").notNull(),
    target: text("target").notNull(),
  },
  (t) => [primaryKey({ columns: [t.action, t.target] })],
);

export const bankTokens = pgTable("bank_tokens", {
  keyHash: text("key_hash").primaryKey(),
  token: text("token"),
  issuedAt: ts("issued_at"),
  expiresAt: ts("expires_at"),
  /** Not before this instant may a new token be requested (interval rule, or a 429's Retry-After). */
  nextRequestAt: ts("next_request_at"),
  requests: integer("requests").notNull().default(0),
});

/**
 * Failed sign-ins to addresses without an account: the same lockout bookkeeping as a user's, so
 * that an unknown address answers exactly like a known one.
 */
export const signInFailures = pgTable("sign_in_failures", {
  email: text("email").primaryKey(),
  failedAttempts: integer("failed_attempts").notNull().default(0),
  lockedUntil: ts("locked_until"),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/**
 * One row per signed-in session, named by the cookie's `jti`. Sign-out sets `revoked_at`; a
 * session with no row, or a revoked one, is refused by every instance (docs/decisions.md, "Sign-out
 * ends the session"). Rows past `expires_at` are of no use and are trimmed.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [index("sessions_expires_at_idx").on(t.expiresAt), index("sessions_user_id_idx").on(t.userId)],
);

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
    /** pending → releasing → (queued →) released | failed; pending → rejected. */
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
    /** Where a wire release went (primary | backup), recorded before the send. */
    channel: text("channel"),
    /** The saved beneficiary that filled the wire: its recent changes are shown at release. */
    beneficiaryId: uuid("beneficiary_id"),
    /** The one release attempt at work on the draft: set by the claim, cleared when it ends unfinished. */
    claimToken: uuid("claim_token"),
    claimedAt: ts("claimed_at"),
  },
  (t) => [
    index("payment_drafts_status_idx").on(t.status, t.preparedAt),
    check("payment_drafts_kind_check", sql`kind = ANY (ARRAY['wire'::text, 'sen'::text])`),
    check("payment_drafts_status_check", sql.raw(DRAFT_STATUS_CHECK_SQL)),
    check("payment_drafts_amount_cents_check", sql`amount_cents > 0`),
    check("payment_drafts_channel_check", sql`channel = ANY (ARRAY['primary'::text, 'backup'::text])`),
  ],
);

/** Approvals of a draft version, one per approver: a release needs one, or two above the limit. */
export const draftApprovals = pgTable(
  "draft_approvals",
  {
    draftId: uuid("draft_id").notNull(),
    version: integer("version").notNull(),
    approverId: text("approver_id").notNull(),
    approverEmail: text("approver_email").notNull(),
    approvedAt: ts("approved_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "draft_approvals_pk", columns: [t.draftId, t.version, t.approverId] }),
    foreignKey({
      name: "draft_approvals_draft_id_fkey",
      columns: [t.draftId],
      foreignColumns: [paymentDrafts.id],
    }),
  ],
);

/** Saved wire beneficiaries that fill the wire form. */
export const beneficiaries = pgTable(
  "beneficiaries",
  {
    id: uuid("id").primaryKey(),
    label: text("label").notNull(),
    fields: jsonb("fields").$type<Record<string, string>>().notNull(),
    createdBy: text("created_by").notNull(),
    createdByEmail: text("created_by_email").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  // One label per beneficiary, whatever its letter case.
  (t) => [uniqueIndex("beneficiaries_label_idx").on(sql`lower(${t.label})`)],
);

/**
 * A new saved beneficiary, or a change to one's account or bank details, by one person; a second
 * person approves or rejects it (lib/payments/payee-changes.ts). `before` and `after` hold
 * only the details that decide where money lands. At most one pending per beneficiary.
 */
export const beneficiaryChanges = pgTable(
  "beneficiary_changes",
  {
    id: uuid("id").primaryKey(),
    beneficiaryId: uuid("beneficiary_id").notNull(),
    /** create | change */
    kind: text("kind").notNull(),
    /** pending → approved | rejected; withdrawn when the beneficiary is deleted first. */
    status: text("status").notNull().default("pending"),
    /** The beneficiary's label when the change was made, for the record after a deletion. */
    label: text("label").notNull(),
    before: jsonb("before").$type<Record<string, string>>(),
    after: jsonb("after").$type<Record<string, string>>().notNull(),
    changedBy: text("changed_by").notNull(),
    changedByEmail: text("changed_by_email").notNull(),
    changedAt: ts("changed_at").notNull().defaultNow(),
    decidedBy: text("decided_by"),
    decidedByEmail: text("decided_by_email"),
    decidedAt: ts("decided_at"),
  },
  (t) => [
    uniqueIndex("beneficiary_changes_one_pending_idx").on(t.beneficiaryId).where(sql`status = 'pending'`),
    index("beneficiary_changes_decided_idx").on(t.beneficiaryId, t.decidedAt),
    check("beneficiary_changes_kind_check", sql`kind = ANY (ARRAY['create'::text, 'change'::text])`),
    check(
      "beneficiary_changes_status_check",
      sql`status = ANY (ARRAY['pending'::text, 'approved'::text, 'rejected'::text, 'withdrawn'::text])`,
    ),
  ],
);

/** Settings an administrator changes at run time; a key with no row has its default (lib/admin/settings-store.ts). */
export const dashboardSettings = pgTable("dashboard_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedBy: text("updated_by"),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/**
 * A change that weakens a control, waiting for a second administrator (lib/admin/changes.ts).
 * pending → approved | rejected | withdrawn | expired | stale (what it was asked against moved on).
 */
export const adminChanges = pgTable(
  "admin_changes",
  {
    id: uuid("id").primaryKey(),
    /** setting, user.role, user.enable or user.password_reset. */
    kind: text("kind").notNull(),
    /** The setting's key, or the user's id. */
    target: text("target").notNull(),
    targetLabel: text("target_label").notNull(),
    /** The value the change was asked against; approval re-checks that it still holds. */
    before: jsonb("before"),
    after: jsonb("after").notNull(),
    status: text("status").notNull().default("pending"),
    requestedById: text("requested_by_id").notNull(),
    requestedByEmail: text("requested_by_email").notNull(),
    requestedAt: ts("requested_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
    decidedById: text("decided_by_id"),
    decidedByEmail: text("decided_by_email"),
    decidedAt: ts("decided_at"),
  },
  (t) => [uniqueIndex("admin_changes_one_pending").on(t.kind, t.target).where(sql`${t.status} = 'pending'`)],
);

/**
 * A decision on an incoming wire, written before it is sent (state `sending`) and updated with the
 * bank's answer: `sent`, `queued` (logged through /v2/payment/backup during an outage),
 * `unconfirmed` (no answer), `done` (the bank's status moved), `rejected` or `failed`. At most one
 * live decision per payment, so a decision is never sent twice.
 */
export const incomingWireDecisions = pgTable(
  "incoming_wire_decisions",
  {
    id: text("id").primaryKey(),
    paymentId: text("payment_id").notNull(),
    accountNumber: text("account_number").notNull(),
    action: text("action").notNull(),
    paymentTimestamp: text("payment_timestamp").notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    originatorName: text("originator_name").notNull().default(""),
    /** Every approver who agreed: [{ id, email }], the sender last. */
    approvers: jsonb("approvers").$type<{ id: string; email: string }[]>().notNull().default([]),
    decidedById: text("decided_by_id").notNull(),
    decidedByEmail: text("decided_by_email").notNull(),
    state: text("state").notNull(),
    /** primary (PUT /v2/payment) or backup (PUT /v2/payment/backup). */
    channel: text("channel").notNull().default("primary"),
    bankStatus: text("bank_status"),
    bankTimestamp: text("bank_timestamp"),
    message: text("message"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("incoming_wire_decisions_one_live")
      .on(t.paymentId)
      .where(sql`${t.state} NOT IN ('rejected', 'failed')`),
    index("incoming_wire_decisions_created_at_idx").on(t.createdAt),
    index("incoming_wire_decisions_open_idx")
      .on(t.state)
      .where(sql`${t.state} IN ('sending', 'queued', 'unconfirmed')`),
  ],
);

/** An approver's vote on a wire above the dual-approval limit; a second approver's agreement sends it. */
export const incomingWireVotes = pgTable(
  "incoming_wire_votes",
  {
    paymentId: text("payment_id").notNull(),
    userId: text("user_id").notNull(),
    userEmail: text("user_email").notNull(),
    accountNumber: text("account_number").notNull(),
    action: text("action").notNull(),
    paymentTimestamp: text("payment_timestamp").notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    at: ts("at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "incoming_wire_votes_pk", columns: [t.paymentId, t.userId] })],
);

/** Balance notifications accepted by the receiver, once per webhook-id (live balances). */
export const liveEvents = pgTable(
  "live_events",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    webhookId: text("webhook_id").notNull().unique("live_events_webhook_id_key"),
    accountNumber: text("account_number").notNull(),
    availableCents: bigint("available_cents", { mode: "number" }).notNull(),
    previousCents: bigint("previous_cents", { mode: "number" }).notNull(),
    receivedAt: ts("received_at").notNull().defaultNow(),
  },
  (t) => [
    index("live_events_account_idx").on(t.accountNumber, t.seq),
    index("live_events_received_idx").on(t.receivedAt),
  ],
);

/** One balance-alert rule per account, with its crossing state (armed flags). */
export const alertRules = pgTable(
  "alert_rules",
  {
    accountNumber: text("account_number").primaryKey(),
    belowCents: bigint("below_cents", { mode: "number" }),
    aboveCents: bigint("above_cents", { mode: "number" }),
    notifyUsers: boolean("notify_users").notNull().default(true),
    emails: text("emails").notNull().default(""),
    bankWebhookId: text("bank_webhook_id"),
    belowArmed: boolean("below_armed").notNull().default(true),
    aboveArmed: boolean("above_armed").notNull().default(true),
    lastEventSeq: bigint("last_event_seq", { mode: "number" }).notNull().default(0),
    updatedBy: text("updated_by"),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  () => [
    check("alert_rules_threshold", sql`below_cents IS NOT NULL OR above_cents IS NOT NULL`),
    check(
      "alert_rules_positive",
      sql`COALESCE(below_cents, (1)::bigint) > 0 AND COALESCE(above_cents, (1)::bigint) > 0`,
    ),
  ],
);

/** One row per crossing of a rule's line. */
export const alerts = pgTable(
  "alerts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    eventSeq: bigint("event_seq", { mode: "number" }).notNull(),
    accountNumber: text("account_number").notNull(),
    kind: text("kind").notNull(),
    thresholdCents: bigint("threshold_cents", { mode: "number" }).notNull(),
    availableCents: bigint("available_cents", { mode: "number" }).notNull(),
    previousCents: bigint("previous_cents", { mode: "number" }).notNull(),
    notifyUsers: boolean("notify_users").notNull(),
    emails: text("emails").notNull().default(""),
    emailedAt: ts("emailed_at"),
    at: ts("at").notNull().defaultNow(),
  },
  (t) => [
    unique("alerts_event_seq_kind_key").on(t.eventSeq, t.kind),
    index("alerts_account_idx").on(t.accountNumber, t.id),
    foreignKey({
      name: "alerts_event_seq_fkey",
      columns: [t.eventSeq],
      foreignColumns: [liveEvents.seq],
    }).onDelete("cascade"),
    check("alerts_kind_check", sql`kind = ANY (ARRAY['below'::text, 'above'::text])`),
  ],
);

/** Per user: every notification up to read_through_seq is read. */
export const notificationMarks = pgTable("notification_marks", {
  userId: text("user_id").primaryKey(),
  readThroughSeq: bigint("read_through_seq", { mode: "number" }).notNull().default(0),
});

/** Per user: single notifications marked read. */
export const notificationReads = pgTable(
  "notification_reads",
  {
    userId: text("user_id").notNull(),
    eventSeq: bigint("event_seq", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ name: "notification_reads_pkey", columns: [t.userId, t.eventSeq] }),
    foreignKey({
      name: "notification_reads_event_seq_fkey",
      columns: [t.eventSeq],
      foreignColumns: [liveEvents.seq],
    }).onDelete("cascade"),
  ],
);

/**
 * E-mail the dashboard sends (the approval digest): written in the transaction that decides to
 * send it, then delivered through DASHBOARD_SMTP_URL by one instance (FOR UPDATE SKIP LOCKED);
 * without a server it stays here, and each person reads theirs on /mail.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey(),
    /** Lower-case addresses, comma-separated. */
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    kind: text("kind").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    sentAt: ts("sent_at"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** One file sent with the message (a subscribed statement), when there is one. */
    attachmentName: text("attachment_name"),
    attachmentType: text("attachment_type"),
    attachment: text("attachment"),
  },
  (t) => [index("mail_outbox_created_idx").on(t.createdAt)],
);

/** Each waiting item an approval digest has named: it is named once, so no digest repeats it. */
export const approvalDigestItems = pgTable("approval_digest_items", {
  /** `draft:<id>@<version>` or `wire:<payment id>` */
  itemKey: text("item_key").primaryKey(),
  mailId: uuid("mail_id"),
  digestedAt: ts("digested_at").notNull().defaultNow(),
});

/**
 * A scheduled or recurring payment (lib/schedules): a SEN transfer or wire request paid on each
 * occurrence of an RFC 5545 rule, rolled onto Fed business days. `version` rises when the amount,
 * payee or account changes, so approvals given to an earlier version no longer count.
 */
export const paymentSeries = pgTable(
  "payment_series",
  {
    id: uuid("id").primaryKey(),
    kind: text("kind").$type<SeriesKind>().notNull(),
    name: text("name").notNull(),
    status: text("status").$type<SeriesStatus>().notNull().default("active"),
    version: integer("version").notNull().default(1),
    fromAccount: text("from_account").notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    /** Destination account (SEN) or beneficiary name (wire), for lists. */
    counterparty: text("counterparty").notNull(),
    /** The saved payee a wire series was filled from: its facts and changes are judged at each send. */
    beneficiaryId: uuid("beneficiary_id"),
    /** The bank request body of each occurrence, as the contract writes it. */
    request: jsonb("request").$type<Record<string, unknown>>().notNull(),
    /** DTSTART and RRULE lines (RFC 5545). */
    rule: text("rule").notNull(),
    /** following | preceding: where a day that is not a business day moves. */
    roll: text("roll").$type<Roll>().notNull(),
    /** The business day of the next occurrence not yet written down; null once the rule has ended. */
    nextDay: text("next_day"),
    preparedBy: text("prepared_by").notNull(),
    preparedByEmail: text("prepared_by_email").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("payment_series_next_day_idx").on(t.nextDay).where(sql`${t.status} = 'active'`),
    check("payment_series_kind_check", sql.raw(checkOneOf("kind", SERIES_KINDS))),
    check("payment_series_status_check", sql.raw(checkOneOf("status", SERIES_STATUSES))),
    check("payment_series_roll_check", sql.raw(checkOneOf("roll", ROLLS))),
    check("payment_series_amount_cents_check", sql`amount_cents > 0`),
  ],
);

/** An approver's approval of a series version: it covers every occurrence of that version. */
export const seriesApprovals = pgTable(
  "series_approvals",
  {
    seriesId: uuid("series_id").notNull(),
    version: integer("version").notNull(),
    approverId: text("approver_id").notNull(),
    approverEmail: text("approver_email").notNull(),
    approvedAt: ts("approved_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "series_approvals_pk", columns: [t.seriesId, t.version, t.approverId] }),
    foreignKey({
      name: "series_approvals_series_id_fkey",
      columns: [t.seriesId],
      foreignColumns: [paymentSeries.id],
    }),
  ],
);

/**
 * One occurrence of a series, identified by the series and the day its rule names: written once
 * (the primary key), claimed by one run at a time, sent with Idempotency-Key = `key`.
 * due → sending → sent | queued (backup log) → sent | failed; due → skipped.
 */
export const seriesOccurrences = pgTable(
  "series_occurrences",
  {
    seriesId: uuid("series_id").notNull(),
    nominalDay: text("nominal_day").notNull(),
    /** The business day it is paid on. */
    day: text("day").notNull(),
    key: uuid("key").notNull(),
    status: text("status").$type<OccurrenceStatus>().notNull().default("due"),
    /** The series version, amount and request of the first attempt: every later attempt resends them. */
    version: integer("version"),
    amountCents: bigint("amount_cents", { mode: "number" }),
    request: jsonb("request").$type<Record<string, unknown>>(),
    claimToken: uuid("claim_token"),
    claimedAt: ts("claimed_at"),
    attempts: integer("attempts").notNull().default(0),
    channel: text("channel"),
    paymentId: text("payment_id"),
    bankAnswer: jsonb("bank_answer").$type<Record<string, unknown>>(),
    /** Why it failed or was skipped, in words. */
    reason: text("reason"),
    /** Who skipped it. */
    actorEmail: text("actor_email"),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "series_occurrences_pk", columns: [t.seriesId, t.nominalDay] }),
    uniqueIndex("series_occurrences_key_idx").on(t.key),
    index("series_occurrences_open_idx")
      .on(t.day)
      .where(sql`${t.status} IN (${sql.raw(sqlWords(OPEN_OCCURRENCE_STATUSES))})`),
    index("series_occurrences_queued_idx").on(t.updatedAt).where(sql`${t.status} = 'queued'`),
    foreignKey({
      name: "series_occurrences_series_id_fkey",
      columns: [t.seriesId],
      foreignColumns: [paymentSeries.id],
    }),
    check("series_occurrences_status_check", sql.raw(checkOneOf("status", OCCURRENCE_STATUSES))),
  ],
);

/**
 * A sweep keeps `account`'s available balance within [low, high] by SEN transfers from and to
 * `funding_account` (both the customer's), at `run_at` (HH:MM, the bank's clock) each business day
 * and when a balance notification crosses the band. Approved once per version, as a series is;
 * a wider band or other accounts start a new version.
 */
export const sweeps = pgTable(
  "sweeps",
  {
    id: uuid("id").primaryKey(),
    name: text("name").notNull(),
    status: text("status").$type<SweepStatus>().notNull().default("active"),
    version: integer("version").notNull().default(1),
    account: text("account").notNull(),
    fundingAccount: text("funding_account").notNull(),
    lowCents: bigint("low_cents", { mode: "number" }).notNull(),
    highCents: bigint("high_cents", { mode: "number" }).notNull(),
    runAt: text("run_at").notNull(),
    preparedBy: text("prepared_by").notNull(),
    preparedByEmail: text("prepared_by_email").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  () => [
    check("sweeps_status_check", sql.raw(checkOneOf("status", SWEEP_STATUSES))),
    check("sweeps_band_check", sql`low_cents >= 0 AND high_cents >= low_cents`),
    check("sweeps_accounts_check", sql`account <> funding_account`),
  ],
);

/** An approver's approval of a sweep version. */
export const sweepApprovals = pgTable(
  "sweep_approvals",
  {
    sweepId: uuid("sweep_id").notNull(),
    version: integer("version").notNull(),
    approverId: text("approver_id").notNull(),
    approverEmail: text("approver_email").notNull(),
    approvedAt: ts("approved_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "sweep_approvals_pk", columns: [t.sweepId, t.version, t.approverId] }),
    foreignKey({ name: "sweep_approvals_sweep_id_fkey", columns: [t.sweepId], foreignColumns: [sweeps.id] }),
  ],
);

/**
 * One run slot of a sweep (the day's run, or one balance crossing): written once by the run that
 * claims it (the primary key), which sends its move with Idempotency-Key = `key`; a run that died
 * leaves its claim to the next, which resends the same move under the same key.
 */
export const sweepMoves = pgTable(
  "sweep_moves",
  {
    sweepId: uuid("sweep_id").notNull(),
    /** `run` for the day's run at its time, `crossing:<notification id>` for a crossing. */
    slot: text("slot").notNull(),
    day: text("day").notNull(),
    key: uuid("key").notNull(),
    status: text("status").$type<SweepMoveStatus>().notNull(),
    direction: text("direction").$type<SweepDirection>(),
    fromAccount: text("from_account"),
    toAccount: text("to_account"),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull().default(0),
    /** The kept account's and the funding account's available balances the move was computed from. */
    availableCents: bigint("available_cents", { mode: "number" }),
    fundingAvailableCents: bigint("funding_available_cents", { mode: "number" }),
    request: jsonb("request").$type<Record<string, unknown>>(),
    claimToken: uuid("claim_token"),
    claimedAt: ts("claimed_at"),
    bankAnswer: jsonb("bank_answer").$type<Record<string, unknown>>(),
    reason: text("reason"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "sweep_moves_pk", columns: [t.sweepId, t.day, t.slot] }),
    uniqueIndex("sweep_moves_key_idx").on(t.key),
    index("sweep_moves_sending_idx").on(t.claimedAt).where(sql`${t.status} = 'sending'`),
    foreignKey({ name: "sweep_moves_sweep_id_fkey", columns: [t.sweepId], foreignColumns: [sweeps.id] }),
    check("sweep_moves_status_check", sql.raw(checkOneOf("status", SWEEP_MOVE_STATUSES))),
    check(
      "sweep_moves_direction_check",
      sql.raw(`direction IS NULL OR ${checkOneOf("direction", SWEEP_DIRECTIONS)}`),
    ),
  ],
);

/**
 * Read-only tokens an administrator gives an ERP: statements and history of the listed accounts,
 * nothing else. Only the SHA-256 of a token is kept (it is shown once, when made).
 */
export const integrationTokens = pgTable(
  "integration_tokens",
  {
    id: uuid("id").primaryKey(),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The token's first characters, to tell tokens apart in the list. */
    prefix: text("prefix").notNull(),
    accounts: text("accounts").array().notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    revokedAt: ts("revoked_at"),
    revokedBy: text("revoked_by"),
    lastUsedAt: ts("last_used_at"),
    lastUsedIp: text("last_used_ip"),
  },
  (t) => [uniqueIndex("integration_tokens_hash_idx").on(t.tokenHash)],
);

/**
 * One-time links e-mailed to a person (an invitation, a password reset, a second factor removed
 * for a lost device): only the SHA-256 of the token is kept, so no one reading the database holds
 * a working link; each is used once, before it expires.
 */
export const credentialLinks = pgTable(
  "credential_links",
  {
    id: uuid("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** `invite`, `reset` or `totp_removal` */
    purpose: text("purpose").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: ts("created_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    /** The administrator who asked for it (and the second who approved it, when one had to). */
    requestedByEmail: text("requested_by_email"),
    approvedByEmail: text("approved_by_email"),
  },
  (t) => [index("credential_links_user_idx").on(t.userId)],
);

/**
 * A statement subscription (lib/statements/subscriptions.ts): each business day at 07:00 by the
 * bank's clock and time zone, the prior-day BAI2 of these accounts e-mailed to these people.
 */
export const statementSubscriptions = pgTable("statement_subscriptions", {
  id: uuid("id").primaryKey(),
  name: text("name").notNull(),
  accounts: text("accounts").array().notNull(),
  /** Lower-case addresses of dashboard users. */
  recipients: text("recipients").array().notNull(),
  /** The first business day whose 07:00 delivers (the bank's day after the one it was made on). */
  startsOn: text("starts_on").notNull(),
  createdBy: text("created_by").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
  cancelledAt: ts("cancelled_at"),
  cancelledBy: text("cancelled_by"),
});

/**
 * One delivery of a subscription, keyed by the business day whose 07:00 it is: the row is the
 * claim (one instance inserts it; a claim whose run died is taken over after its lease), then
 * holds the file, kept 90 days for the Statements page. An attempt that fails leaves it
 * 'retrying' until its next attempt is due; after the last one it is 'failed' with its reason.
 */
export const statementDeliveries = pgTable(
  "statement_deliveries",
  {
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => statementSubscriptions.id, { onDelete: "cascade" }),
    businessDay: text("business_day").notNull(),
    /** The statement's range: the prior business day through yesterday. */
    fromDay: text("from_day").notNull(),
    toDay: text("to_day").notNull(),
    status: text("status").notNull(),
    claimToken: text("claim_token"),
    claimedAt: ts("claimed_at").notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(1),
    fileName: text("file_name"),
    content: text("content"),
    mailId: uuid("mail_id"),
    lastError: text("last_error"),
    deliveredAt: ts("delivered_at"),
    /** While 'retrying': the bank's time from which the next attempt is due. */
    nextAttemptAt: ts("next_attempt_at"),
    /** When it was given up ('failed'), its reason in last_error. */
    failedAt: ts("failed_at"),
  },
  (t) => [
    primaryKey({ columns: [t.subscriptionId, t.businessDay] }),
    check(
      "statement_deliveries_status_check",
      sql`${t.status} IN ('claimed', 'retrying', 'delivered', 'failed')`,
    ),
  ],
);
