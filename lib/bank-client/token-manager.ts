// One bank access token per subscription key, shared by every dashboard instance through the
// dashboard database (docs/decisions.md, "One token for all instances"). The bank issues a token at most once per
// 5 minutes per key and each is valid 15 minutes (specification, Authentication): renew about a
// minute ahead, one instance at a time under a row lock, and after a 401 renew once.
import "server-only";
import { createHash } from "node:crypto";
import { BANK_HEADERS } from "../bank-api/headers.ts";
import type { DashboardDb, Queryable } from "../db/client.ts";
import type { bankTokens } from "../db/schema.ts";
import { dashboardMetrics } from "../operations/metrics.ts";
import { createLogger } from "../server/log.ts";
import type { SqlRow } from "../server/sql-row.ts";
import { withTrace } from "../server/trace.ts";
import { noteBankDate } from "./bank-time.ts";
import { BankCallError, unavailable } from "./errors.ts";

const log = createLogger("bank-token");

export interface TokenManagerOptions {
  db: DashboardDb;
  bankUrl: string;
  subscriptionKey: string;
  /** Token validity (specification: 15 minutes). */
  ttlSeconds?: number;
  /** Minimum time between two token requests (specification: 5 minutes). */
  intervalSeconds?: number;
  /** Renew this long before expiry, so no request carries a token about to lapse. */
  renewAheadSeconds?: number;
  timeoutMs?: number;
  now?: () => number;
}

type TokenRow = Pick<SqlRow<typeof bankTokens>, "token" | "issued_at" | "expires_at" | "next_request_at">;

interface Held {
  token: string;
  issuedAt: number;
  expiresAt: number;
}

const ms = (v: Date | string | null): number | null => (v === null ? null : new Date(v).getTime());

export class TokenManager {
  /** Token requests this process has sent to the bank (tests and metrics read it). */
  requestsSent = 0;
  private held: Held | null = null;
  private inflight: Promise<string> | null = null;
  private readonly keyHash: string;
  private readonly ttl: number;
  private readonly interval: number;
  private readonly ahead: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private rowReady: Promise<void> | null = null;

  constructor(private readonly opts: TokenManagerOptions) {
    this.keyHash = createHash("sha256").update(opts.subscriptionKey).digest("hex");
    this.ttl = (opts.ttlSeconds ?? 900) * 1000;
    this.interval = (opts.intervalSeconds ?? 300) * 1000;
    this.ahead = (opts.renewAheadSeconds ?? 60) * 1000;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  /** A token good for the next request: from memory, else from the shared row, else a new one. */
  async getToken(): Promise<string> {
    const h = this.held;
    if (h && this.now() < h.expiresAt - this.ahead) return h.token;
    return this.singleFlight(null);
  }

  /** The bank answered 401 to `rejected`: get a different token (one renewal; the caller gives up after). */
  async renewAfterRejection(rejected: string): Promise<string> {
    const h = this.held;
    if (h && h.token !== rejected && this.now() < h.expiresAt) return h.token;
    if (h?.token === rejected) this.held = null;
    return this.singleFlight(rejected);
  }

  /** Forget the token held in memory (the shared row stays). */
  forget(): void {
    this.held = null;
  }

  private singleFlight(rejected: string | null): Promise<string> {
    // Callers in this process share one renewal; other instances are held off by the row lock.
    if (!this.inflight) {
      this.inflight = this.acquire(rejected).finally(() => {
        this.inflight = null;
      });
    }
    return this.inflight;
  }

  private async ensureRow(): Promise<void> {
    if (!this.rowReady) {
      this.rowReady = this.opts.db
        .query("INSERT INTO bank_tokens (key_hash) VALUES ($1) ON CONFLICT (key_hash) DO NOTHING", [
          this.keyHash,
        ])
        .then(() => undefined);
      this.rowReady.catch(() => {
        this.rowReady = null;
      });
    }
    return this.rowReady;
  }

  private async acquire(rejected: string | null): Promise<string> {
    await this.ensureRow();
    // Failures are returned from the transaction, not thrown, so that what it recorded (a 429's
    // Retry-After) is committed rather than rolled back.
    const outcome = await this.opts.db.tx(async (q): Promise<string | BankCallError> => {
      const rows = await q.query<TokenRow>(
        "SELECT token, issued_at, expires_at, next_request_at FROM bank_tokens WHERE key_hash = $1 FOR UPDATE",
        [this.keyHash],
      );
      const row = rows[0];
      const now = this.now();
      const stored: Held | null =
        row?.token && row.expires_at
          ? { token: row.token, issuedAt: ms(row.issued_at) ?? 0, expiresAt: ms(row.expires_at) ?? 0 }
          : null;
      const usable = stored && stored.token !== rejected && now < stored.expiresAt;
      // Another instance (or an earlier caller) already renewed: reuse its token.
      if (usable && (rejected !== null || now < stored.expiresAt - this.ahead)) return this.keep(stored);
      // Ahead-of-expiry renewal waits for the bank's interval; a still-valid token serves meanwhile.
      if (usable && rejected === null && now < stored.issuedAt + this.interval) return this.keep(stored);
      const waitUntil = ms(row?.next_request_at ?? null);
      if (waitUntil !== null && now < waitUntil) {
        if (usable) return this.keep(stored);
        return new BankCallError(
          unavailable(
            `The bank allows a new access token in ${Math.ceil((waitUntil - now) / 1000)} seconds; try again then.`,
            Math.ceil((waitUntil - now) / 1000),
          ),
        );
      }
      try {
        return await this.request(q, usable ? stored : null);
      } catch (e) {
        if (e instanceof BankCallError) return e;
        throw e;
      }
    });
    if (outcome instanceof BankCallError) throw outcome;
    return outcome;
  }

  private keep(h: Held): string {
    this.held = h;
    return h.token;
  }

  private async request(q: Queryable, fallback: Held | null): Promise<string> {
    this.requestsSent++;
    let res: Response;
    const sentAt = Date.now();
    try {
      res = await fetch(new URL("/v2/access/token", this.opts.bankUrl), {
        headers: withTrace({ [BANK_HEADERS.subscriptionKey]: this.opts.subscriptionKey }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      log.warn("token request failed", { error: (e as Error).message });
      dashboardMetrics().tokenRenewal("failed");
      if (fallback) return this.keep(fallback);
      throw new BankCallError(unavailable("The bank cannot be reached right now."));
    }
    await res.arrayBuffer().catch(() => undefined);
    noteBankDate(res.headers.get("date") ?? undefined, sentAt, Date.now());
    const now = this.now();
    if (res.status === 200) {
      const header = res.headers.get(BANK_HEADERS.authorization) ?? "";
      const token = header.replace(/^Bearer\s+/i, "").trim();
      if (!token) {
        throw new BankCallError({ kind: "bank_error", message: "The bank issued no access token." });
      }
      const held: Held = { token, issuedAt: now, expiresAt: now + this.ttl };
      await q.query(
        `UPDATE bank_tokens SET token = $2, issued_at = $3, expires_at = $4, next_request_at = NULL,
           requests = requests + 1 WHERE key_hash = $1`,
        [this.keyHash, token, new Date(now), new Date(held.expiresAt)],
      );
      log.info("bank access token renewed", { expiresAt: new Date(held.expiresAt).toISOString() });
      dashboardMetrics().tokenRenewal("renewed");
      return this.keep(held);
    }
    if (res.status === 429) {
      const retryAfter = Math.max(
        1,
        Number(res.headers.get(BANK_HEADERS.retryAfter)) || this.interval / 1000,
      );
      await q.query("UPDATE bank_tokens SET next_request_at = $2 WHERE key_hash = $1", [
        this.keyHash,
        new Date(now + retryAfter * 1000),
      ]);
      log.warn("bank refused a token request as too soon", { retryAfter });
      dashboardMetrics().tokenRenewal("too_soon");
      if (fallback) return this.keep(fallback);
      throw new BankCallError(
        unavailable(
          `The bank allows a new access token in ${retryAfter} seconds; try again then.`,
          retryAfter,
        ),
      );
    }
    dashboardMetrics().tokenRenewal("failed");
    if (res.status === 401) {
      throw new BankCallError({
        kind: "bank_error",
        status: 401,
        message: "The bank did not accept the dashboard's subscription key.",
      });
    }
    if (fallback) return this.keep(fallback);
    throw new BankCallError(unavailable(`The bank could not issue an access token (HTTP ${res.status}).`));
  }
}
