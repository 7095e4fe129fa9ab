// Every setting of the dashboard, read from the environment and checked with zod (README,
// Configuration), as bank/config.ts is for the bank. Nothing else in the dashboard reads
// process.env: a new setting is a field here and a row in the README.

import { z } from "zod";
import { DEFAULT_TIME_ZONE } from "./bank-api/dates.ts";
import { parseProxyList } from "./server/forwarded.ts";

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : v));

const positiveInt = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0) {
        ctx.addIssue({ code: "custom", message: `must be a positive whole number, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const wholeNumber = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) {
        ctx.addIssue({ code: "custom", message: `must be a whole number, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const url = optionalText.refine((v) => v === undefined || URL.canParse(v), "must be an absolute URL");

const timeZone = optionalText.transform((v, ctx) => {
  const zone = v ?? DEFAULT_TIME_ZONE;
  try {
    new Intl.DateTimeFormat("en-CA", { timeZone: zone });
  } catch {
    ctx.addIssue({ code: "custom", message: `is not a time zone: "${zone}"` });
    return z.NEVER;
  }
  return zone;
});

const schema = z.object({
  BANK_API_URL: url,
  BANK_SUBSCRIPTION_KEY: optionalText,
  BANK_WEBHOOK_SECRET: optionalText,
  DASHBOARD_WEBHOOK_BASE_URL: url,
  NEXTAUTH_URL: url,
  NEXTAUTH_SECRET: optionalText,
  DASHBOARD_SECRETS_KEY: optionalText,
  DATABASE_URL: optionalText,
  DATABASE_POOL: positiveInt(10),
  DASHBOARD_DATA_DIR: optionalText,
  DASHBOARD_MIGRATIONS_DIR: optionalText,
  SESSION_IDLE_SECONDS: positiveInt(900),
  SESSION_IDLE_WARNING_SECONDS: positiveInt(120),
  SIGN_IN_RATE_LIMIT_PER_MINUTE: positiveInt(30),
  LIVE_STREAMS_PER_USER: positiveInt(32),
  APPROVAL_DIGEST_CHECK_SECONDS: positiveInt(30),
  SCHEDULE_RUN_SECONDS: positiveInt(15),
  INBOX_WATCH_MS: positiveInt(250),
  DASHBOARD_TIME_ZONE: timeZone,
  DASHBOARD_SMTP_URL: url,
  DASHBOARD_MAIL_FROM: optionalText,
  METRICS_TOKEN: optionalText,
  DASHBOARD_DRAIN_DELAY_MS: wholeNumber(0),
  DASHBOARD_SHUTDOWN_TIMEOUT_MS: wholeNumber(10_000),
  DRAFT_CLAIM_STUCK_SECONDS: positiveInt(120),
  TRUSTED_PROXIES: optionalText.transform((v, ctx) => {
    const list = parseProxyList(v);
    if ("entries" in list) return list.entries;
    ctx.addIssue({ code: "custom", message: `must list addresses or CIDRs, got "${list.bad}"` });
    return z.NEVER;
  }),
  NODE_ENV: optionalText,
});

export interface DashboardConfig {
  bankApiUrl?: string;
  bankSubscriptionKey?: string;
  /** The customer's webhook secret: checks the bank's notifications; unset turns live balances off. */
  bankWebhookSecret?: string;
  /** Where the bank posts notifications; defaults to the public address. */
  webhookBaseUrl?: string;
  /** NEXTAUTH_URL: the dashboard's public address. */
  publicUrl?: string;
  nextAuthSecret?: string;
  /** Key of stored secrets (TOTP seeds); NEXTAUTH_SECRET when unset. */
  secretsKey?: string;
  databaseUrl?: string;
  /** Connections in the PostgreSQL pool (besides one for LISTEN and short-lived lock holders). */
  databasePool: number;
  dataDir: string;
  migrationsDir: string;
  sessionIdleSeconds: number;
  sessionIdleWarningSeconds: number;
  signInRateLimitPerMinute: number;
  /** Live event streams (/api/events) one user may hold open at once on one instance. */
  liveStreamsPerUser: number;
  /** How often each instance looks for what has waited past the approval-digest setting. */
  approvalDigestCheckSeconds: number;
  /** How often each instance runs the scheduled payments due by the bank's business date. */
  scheduleRunSeconds: number;
  /**
   * While a page listens, how often each instance looks for a new wire at the bank (one payment
   * read per account) and for new drafts and votes (one query).
   */
  inboxWatchMs: number;
  /** The bank's business time zone: "today", and every time the dashboard shows. */
  timeZone: string;
  smtpUrl?: string;
  mailFrom: string;
  /** GET /metrics needs `Authorization: Bearer <this>`; unset, /metrics answers 404. */
  metricsToken?: string;
  /** On SIGTERM: how long readiness answers 503 before new requests are refused. */
  drainDelayMs: number;
  /** On SIGTERM: the longest wait for requests in flight before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** A release's claim on a draft older than this may be taken over (its instance went away). */
  draftClaimStuckSeconds: number;
  /** Proxies (addresses, CIDRs) whose X-Forwarded-For, -Host and -Proto are believed; none by default. */
  trustedProxies: string[];
  /** Tests: logs only errors. */
  quiet: boolean;
  /** Outside production, route handlers check their answers against the response schemas. */
  checkResponses: boolean;
}

const KEYS = Object.keys(schema.shape) as (keyof typeof schema.shape)[];
let cached: { signature: string; config: DashboardConfig } | null = null;

/**
 * The dashboard's settings. Parsed at the first call (the server calls it at start, so a bad value
 * stops it there) and again only when the environment changed, as tests change it.
 */
export function config(): DashboardConfig {
  const env = process.env;
  const signature = KEYS.map((k) => env[k] ?? "\u0000").join("\u0001");
  if (cached?.signature === signature) return cached.config;
  const r = schema.safeParse(Object.fromEntries(KEYS.map((k) => [k, env[k]])));
  if (!r.success) {
    const lines = r.error.issues.map((i) => `${String(i.path[0])} ${i.message}`);
    throw new Error(`The dashboard's configuration is not valid:\n${lines.join("\n")}`);
  }
  const e = r.data;
  const cfg: DashboardConfig = {
    bankApiUrl: e.BANK_API_URL,
    bankSubscriptionKey: e.BANK_SUBSCRIPTION_KEY,
    bankWebhookSecret: e.BANK_WEBHOOK_SECRET,
    webhookBaseUrl: e.DASHBOARD_WEBHOOK_BASE_URL ?? e.NEXTAUTH_URL,
    publicUrl: e.NEXTAUTH_URL,
    nextAuthSecret: e.NEXTAUTH_SECRET,
    secretsKey: e.DASHBOARD_SECRETS_KEY ?? e.NEXTAUTH_SECRET,
    databaseUrl: e.DATABASE_URL,
    databasePool: e.DATABASE_POOL,
    dataDir: e.DASHBOARD_DATA_DIR ?? ".data/dashboard",
    // Resolved from the working directory: bundled server code has no reliable import.meta.url path.
    migrationsDir: e.DASHBOARD_MIGRATIONS_DIR ?? `${process.cwd()}/lib/db/migrations`,
    sessionIdleSeconds: e.SESSION_IDLE_SECONDS,
    sessionIdleWarningSeconds: e.SESSION_IDLE_WARNING_SECONDS,
    signInRateLimitPerMinute: e.SIGN_IN_RATE_LIMIT_PER_MINUTE,
    liveStreamsPerUser: e.LIVE_STREAMS_PER_USER,
    approvalDigestCheckSeconds: e.APPROVAL_DIGEST_CHECK_SECONDS,
    scheduleRunSeconds: e.SCHEDULE_RUN_SECONDS,
    inboxWatchMs: e.INBOX_WATCH_MS,
    timeZone: e.DASHBOARD_TIME_ZONE,
    smtpUrl: e.DASHBOARD_SMTP_URL,
    mailFrom: e.DASHBOARD_MAIL_FROM ?? "Treasury <treasury@dashboard.localhost>",
    metricsToken: e.METRICS_TOKEN,
    drainDelayMs: e.DASHBOARD_DRAIN_DELAY_MS,
    shutdownTimeoutMs: e.DASHBOARD_SHUTDOWN_TIMEOUT_MS,
    draftClaimStuckSeconds: e.DRAFT_CLAIM_STUCK_SECONDS,
    trustedProxies: e.TRUSTED_PROXIES,
    quiet: e.NODE_ENV === "test",
    checkResponses: e.NODE_ENV !== "production",
  };
  cached = { signature, config: cfg };
  return cfg;
}

/** NEXTAUTH_SECRET, which signs sessions and derives the notification path: required. */
export function requireAuthSecret(): string {
  const s = config().nextAuthSecret;
  if (!s) throw new Error("NEXTAUTH_SECRET must be set");
  return s;
}
