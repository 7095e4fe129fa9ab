// Every setting of the bank, read once from the environment (README, Configuration).
import { randomBytes } from "node:crypto";
import { businessDayFormatter, DEFAULT_TIME_ZONE } from "../lib/bank-api/dates.ts";
import { parseProxyList } from "../lib/server/forwarded.ts";

export interface BankConfig {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  sandbox: boolean;
  sandboxKey: string;
  sandboxKeyGenerated: boolean;
  /** Port of the sandbox mail box's SMTP receiver (0 picks one); unset, there is none. */
  sandboxSmtpPort?: number;
  timeZone: string;
  tokenTtlSeconds: number;
  tokenIntervalSeconds: number;
  jwtSecret?: string;
  smtpUrl?: string;
  mailFrom: string;
  webhookAllow: string[];
  /** First retry delay of a failed webhook or e-mail delivery; doubles per attempt (full jitter). */
  webhookRetryBaseMs: number;
  /** Webhook deliveries in flight at once, and at most this many to one receiver (host and port). */
  webhookConcurrency: number;
  webhookHostConcurrency: number;
  settleAfterSeconds: number;
  /** With the sandbox on: a new bank's clock starts this far ahead of real time (a day of the week to try). */
  sandboxClockStartSeconds: number;
  demo: boolean;
  poolSize: number;
  logRequests: boolean;
  /** Prometheus metrics at GET /metrics (BANK_METRICS=off: none, and no cost). */
  metrics: boolean;
  /** When set, GET /metrics needs `Authorization: Bearer <this>`. */
  metricsToken?: string;
  /** On SIGTERM: how long readiness answers 503 before the listener closes (for a load balancer to notice). */
  drainDelayMs: number;
  /** On SIGTERM: the longest wait for requests in flight before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** Time a client has to send its headers and its whole request. */
  requestTimeoutMs: number;
  /** Open connections one client address may hold at once. */
  maxConnectionsPerAddress: number;
  /** Load balancers (addresses, CIDRs) whose X-Forwarded-For names the client. */
  trustedProxies: string[];
}

function int(name: string, fallback: number, env: Record<string, string | undefined>): number {
  const v = env[name];
  if (v === undefined || v === "") return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${v}"`);
  return n;
}

/** A pool of no connections could never serve: refused at start. */
function atLeastOne(name: string, n: number): number {
  if (n < 1) throw new Error(`${name} must be at least 1, got ${n}`);
  return n;
}

export function loadBankConfig(env: Record<string, string | undefined> = process.env): BankConfig {
  const sandboxKey = env.BANK_SANDBOX_KEY || `sbx_${randomBytes(18).toString("base64url")}`;
  const timeZone = env.BANK_TIME_ZONE || DEFAULT_TIME_ZONE;
  businessDayFormatter(timeZone);
  // A wrong entry stops the start here, not at the first request.
  const proxyList = parseProxyList(env.BANK_TRUSTED_PROXIES);
  if ("bad" in proxyList)
    throw new Error(`BANK_TRUSTED_PROXIES: "${proxyList.bad}" is not an address or a CIDR`);
  const trustedProxies = proxyList.entries;
  return {
    port: int("BANK_PORT", 4000, env),
    host: env.BANK_HOST || "127.0.0.1",
    databaseUrl: env.BANK_DATABASE_URL || undefined,
    dataDir: env.BANK_DATA_DIR || ".data/bank",
    sandbox: env.BANK_SANDBOX !== "off",
    sandboxKey,
    sandboxKeyGenerated: !env.BANK_SANDBOX_KEY,
    sandboxSmtpPort: env.BANK_SANDBOX_SMTP_PORT ? int("BANK_SANDBOX_SMTP_PORT", 0, env) : undefined,
    timeZone,
    tokenTtlSeconds: int("BANK_TOKEN_TTL_SECONDS", 15 * 60, env),
    tokenIntervalSeconds: int("BANK_TOKEN_INTERVAL_SECONDS", 5 * 60, env),
    jwtSecret: env.BANK_JWT_SECRET || undefined,
    smtpUrl: env.BANK_SMTP_URL || undefined,
    mailFrom: env.BANK_MAIL_FROM || "Bank Notifications <notifications@bank.localhost>",
    webhookAllow: (env.BANK_WEBHOOK_ALLOW || "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    webhookRetryBaseMs: int("BANK_WEBHOOK_RETRY_BASE_MS", 5000, env),
    webhookConcurrency: int("BANK_WEBHOOK_CONCURRENCY", 64, env),
    webhookHostConcurrency: int("BANK_WEBHOOK_HOST_CONCURRENCY", 32, env),
    settleAfterSeconds: int("BANK_SETTLE_AFTER_SECONDS", 30, env),
    sandboxClockStartSeconds: int("BANK_SANDBOX_CLOCK_START_SECONDS", 0, env),
    demo: env.BANK_DEMO === "1",
    poolSize: atLeastOne("BANK_DB_POOL", int("BANK_DB_POOL", 10, env)),
    logRequests: env.BANK_LOG_REQUESTS !== "0",
    metrics: env.BANK_METRICS !== "off",
    metricsToken: env.BANK_METRICS_TOKEN || undefined,
    drainDelayMs: int("BANK_DRAIN_DELAY_MS", 0, env),
    shutdownTimeoutMs: int("BANK_SHUTDOWN_TIMEOUT_MS", 10_000, env),
    requestTimeoutMs: int("BANK_REQUEST_TIMEOUT_MS", 10_000, env) || 10_000,
    maxConnectionsPerAddress: int("BANK_MAX_CONNECTIONS_PER_ADDRESS", 128, env) || 128,
    trustedProxies,
  };
}
