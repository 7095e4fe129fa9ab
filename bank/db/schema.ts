// The bank's tables. Money is integer cents in bigint columns (read back as JS numbers: every
// amount the API allows is far below 2^53).
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  char,
  check,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import type { PaymentStatus } from "../../lib/bank-api/rules.ts";
import type { PaymentDetails, PaymentDirection } from "../payments/records.ts";

const cents = (name: string) => bigint(name, { mode: "number" });
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Settings that must survive restarts and be shared by instances (JWT secret, clock offset, wire system). */
export const bankSettings = pgTable("bank_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export const customers = pgTable("customers", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  shortName: text("short_name").notNull(),
  /** Legal title lines LGLTTLLN1..6, inherited by new accounts. */
  titleLines: text("title_lines").array().notNull().default(sql`'{}'::text[]`),
  /** SHA-256 of the subscription key: the key itself is shown once and never stored. */
  keyHash: text("key_hash").notNull().unique(),
  webhookSecret: text("webhook_secret").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/** One row per subscription key: the last token issue, for the once-per-interval rule. */
export const tokenIssues = pgTable("token_issues", {
  customerId: integer("customer_id")
    .primaryKey()
    .references(() => customers.id),
  lastIssuedAt: ts("last_issued_at").notNull(),
});

export const accounts = pgTable(
  "accounts",
  {
    number: text("number").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    /** DDA (demand deposit) or SEN (on the exchange network). */
    type: text("type").$type<"DDA" | "SEN">().notNull(),
    /** A active, C closed, D dormant. */
    status: char("status", { length: 1 }).notNull().default("A"),
    titleLines: text("title_lines").array().notNull().default(sql`'{}'::text[]`),
    shortName: text("short_name").notNull(),
    openedOn: date("opened_on", { mode: "string" }).notNull(),
    availableCents: cents("available_cents").notNull().default(0),
    currentCents: cents("current_cents").notNull().default(0),
    holdsCents: cents("holds_cents").notNull().default(0),
    lastDepositCents: cents("last_deposit_cents").notNull().default(0),
    lastDepositOn: date("last_deposit_on", { mode: "string" }),
    expectedBalance: integer("expected_balance"),
    expectedIncomingMonth: integer("expected_incoming_month"),
    expectedOutgoingMonth: integer("expected_outgoing_month"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("accounts_customer_idx").on(t.customerId, t.number),
    check("accounts_available_not_negative", sql`${t.availableCents} >= 0`),
    check("accounts_holds_not_negative", sql`${t.holdsCents} >= 0`),
  ],
);

/** Posted and memo-posted transactions: what history returns. */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountNumber: text("account_number")
      .notNull()
      .references(() => accounts.number),
    postedAt: ts("posted_at").notNull(),
    /** Business date in the bank's time zone (TRANDATE / EFFDATE). */
    tranDate: date("tran_date", { mode: "string" }).notNull(),
    amountCents: cents("amount_cents").notNull(),
    drCr: char("dr_cr", { length: 1 }).$type<"D" | "C">().notNull(),
    tranCode: text("tran_code").notNull(),
    /** TRANDESC, TRANDESCS, TRANDESC3..11 in order. */
    descriptions: text("descriptions").array().notNull(),
    availableAfterCents: cents("available_after_cents").notNull(),
    idempotencyKey: text("idempotency_key").notNull().default(""),
    serial1: text("serial1").notNull().default(""),
    serial2: text("serial2").notNull().default(""),
    paymentId: text("payment_id").notNull().default(""),
    /** Both entries of one SEN transfer share it. */
    transferId: text("transfer_id"),
    counterpartyAccount: text("counterparty_account"),
    counterpartyName: text("counterparty_name"),
    senderMemo: text("sender_memo"),
    memoPost: boolean("memo_post").notNull().default(true),
  },
  (t) => [
    index("ledger_account_time_idx").on(t.accountNumber, t.tranDate, t.id),
    // Most entries belong to no wire: index only those that do.
    index("ledger_payment_idx").on(t.accountNumber, t.paymentId).where(sql`${t.paymentId} <> ''`),
    check("ledger_amount_positive", sql`${t.amountCents} > 0`),
    check("ledger_dr_cr", sql`${t.drCr} in ('D','C')`),
  ],
);

/** Idempotency-Key records: the first response, kept at least 24 hours. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    customerId: integer("customer_id").notNull(),
    key: text("key").notNull(),
    endpoint: text("endpoint").notNull(),
    requestHash: text("request_hash").notNull(),
    response: jsonb("response").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.endpoint, t.key] }),
    index("idempotency_created_idx").on(t.createdAt),
  ],
);

/** Wire payments, outgoing and incoming. Record fields not held in columns live in `details`. */
export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    accountNumber: text("account_number")
      .notNull()
      .references(() => accounts.number),
    direction: text("direction").$type<PaymentDirection>().notNull(),
    status: text("status").$type<PaymentStatus>().notNull(),
    /** payment_timestamp of the last status change, `YYYY-MM-DD hh:mm:ss.fff`: the optimistic lock. */
    statusTimestamp: text("status_timestamp").notNull(),
    amountCents: cents("amount_cents").notNull(),
    fedwireType: text("fedwire_type").notNull().default("10"),
    fedwireSubType: text("fedwire_sub_type").notNull().default("00"),
    paymentDate: date("payment_date", { mode: "string" }).notNull(),
    entryAt: ts("entry_at").notNull(),
    completedAt: ts("completed_at"),
    canceledAt: ts("canceled_at"),
    imad: text("imad"),
    omad: text("omad"),
    returnOf: text("return_of"),
    idempotencyKey: text("idempotency_key"),
    details: jsonb("details").$type<PaymentDetails>().notNull().default(sql`'{}'::jsonb`),
    /** The GET /v2/payment record as JSON text, rendered by a trigger on every write: listing is concatenation. */
    record: text("record").notNull().default("{}"),
  },
  (t) => [
    index("payments_account_date_idx").on(t.accountNumber, t.paymentDate, t.id),
    index("payments_status_idx").on(t.status),
    // The settlement poller's wires waiting for Fedwire.
    index("payments_in_progress_idx").on(t.statusTimestamp).where(sql`status = 'In-Progress'`),
    // An internal transfer found from its credited account.
    index("payments_internal_credit_idx")
      .on(sql`(details->>'credit_account_id')`, t.paymentDate)
      .where(sql`direction = 'Internal'`),
  ],
);

/** E-wire summary records, written when a wire settles. */
export const wireSummaries = pgTable(
  "wire_summaries",
  {
    transactionNumber: text("transaction_number").primaryKey(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id),
    accountNumber: text("account_number").notNull(),
    summaryDate: date("summary_date", { mode: "string" }).notNull(),
    sourceIndicator: char("source_indicator", { length: 1 }).notNull(),
    uniqueId: text("unique_id").notNull(),
    record: jsonb("record").notNull(),
  },
  (t) => [
    index("wire_summaries_account_date_idx").on(t.accountNumber, t.summaryDate, t.sourceIndicator),
    index("wire_summaries_unique_idx").on(t.uniqueId),
  ],
);

/** The sequence part of the IMAD and OMAD a settled wire is given (bank/payments/settlement.ts). */
export const wireMessageSeq = pgSequence("wire_message_seq", { startWith: 100001 });

/** Payment requests logged while the wire system is down, replayed in `seq` order, each once. */
export const paymentBackupLog = pgTable(
  "payment_backup_log",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    customerId: integer("customer_id").notNull(),
    kind: text("kind").notNull(),
    request: jsonb("request").$type<Record<string, unknown>>().notNull(),
    loggedAt: ts("logged_at").notNull(),
    replayedAt: ts("replayed_at"),
    result: jsonb("result"),
  },
  (t) => [index("payment_backup_log_pending_idx").on(t.seq).where(sql`replayed_at IS NULL`)],
);

export const webhooks = pgTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    accountNumber: text("account_number").notNull(),
    description: text("description").notNull().default(""),
    url: text("url").notNull().default(""),
    emails: text("emails").notNull().default(""),
    sms: text("sms").notNull().default(""),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("webhooks_account_idx").on(t.accountNumber), index("webhooks_customer_idx").on(t.customerId)],
);

/** Notifications written in the same transaction as the balance change; the dispatcher drains it. */
export const outbox = pgTable(
  "outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** The Standard Webhooks `webhook-id`: stable across retries so receivers can dedupe. */
    messageId: text("message_id").notNull().unique(),
    webhookId: text("webhook_id").notNull(),
    customerId: integer("customer_id").notNull(),
    /** http or email */
    channel: text("channel").notNull(),
    target: text("target").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: ts("created_at").notNull(),
    nextAttemptAt: ts("next_attempt_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** pending, delivered, failed (gave up) */
    state: text("state").notNull().default("pending"),
    lastError: text("last_error"),
    deliveredAt: ts("delivered_at"),
    /** Claimed by a dispatcher: its request may be on the wire until the attempt is recorded. */
    leased: boolean("leased").notNull().default(false),
    /** The receiver of an http row (host and port of the URL, lower case); '' for e-mail. */
    host: text("host")
      .notNull()
      .generatedAlwaysAs(
        sql`CASE WHEN channel = 'http' THEN coalesce(lower(substring(target from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?([^/?#]+)')), '') ELSE '' END`,
      ),
  },
  (t) => [
    // Claims read each receiver's never-tried rows and its retries in order, from these.
    index("outbox_new_idx").on(t.host, t.createdAt).where(sql`${t.state} = 'pending' AND ${t.attempts} = 0`),
    index("outbox_retry_idx")
      .on(t.host, t.nextAttemptAt)
      .where(sql`${t.state} = 'pending' AND ${t.attempts} > 0`),
    // Deleting a webhook drops its pending notifications.
    index("outbox_pending_webhook_idx").on(t.webhookId).where(sql`${t.state} = 'pending'`),
  ],
);

/** Every delivery attempt, for GET /sandbox/webhook-deliveries. */
export const deliveryAttempts = pgTable(
  "delivery_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    outboxId: bigint("outbox_id", { mode: "number" }).notNull(),
    messageId: text("message_id").notNull(),
    channel: text("channel").notNull(),
    target: text("target").notNull(),
    attempt: integer("attempt").notNull(),
    at: ts("at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    statusCode: integer("status_code"),
    /** Null from the claim, before the request goes out, until its answer is recorded. */
    ok: boolean("ok"),
    error: text("error"),
  },
  (t) => [index("delivery_attempts_outbox_idx").on(t.outboxId)],
);

/** The sandbox mail box: messages e-mailed when no SMTP server is configured. */
export const sandboxMail = pgTable("sandbox_mail", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  messageId: text("message_id").notNull(),
  at: ts("at").notNull(),
  /** Files an SMTP message carried (bank/sandbox/smtp.ts): `[{ filename, contentType, contentBase64 }]`. */
  attachments: jsonb("attachments")
    .$type<{ filename: string; contentType: string; contentBase64: string }[]>()
    .notNull()
    .default([]),
});
