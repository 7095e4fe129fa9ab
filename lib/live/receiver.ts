// Where the bank sends this dashboard's balance notifications, and keeping the bank's webhooks
// pointing there. The path carries a token derived from NEXTAUTH_SECRET (stable across restarts
// and instances, unguessable), and every notification is checked against the customer's webhook
// secret (BANK_WEBHOOK_SECRET) before it is believed.
import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { BankClient } from "../bank-client/client.ts";
import { getBankClient } from "../bank-client/index.ts";
import { config, requireAuthSecret } from "../config.ts";
import { type DashboardDb, getDashboardDb } from "../db/client.ts";
import { createLogger } from "../server/log.ts";

const log = createLogger("live");

export const LIVE_DESCRIPTION = "Treasury dashboard live balances";

export function receiverToken(): string {
  return createHmac("sha256", requireAuthSecret())
    .update("bank balance notifications")
    .digest("base64url")
    .slice(0, 32);
}

export function isReceiverToken(token: string): boolean {
  const a = Buffer.from(token);
  const b = Buffer.from(receiverToken());
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The address the bank posts to: DASHBOARD_WEBHOOK_BASE_URL, else NEXTAUTH_URL. */
export function receiverUrl(): string | null {
  const { webhookBaseUrl: base, bankWebhookSecret } = config();
  if (!base || !bankWebhookSecret) return null;
  return new URL(`/api/bank-events/${receiverToken()}`, base).toString();
}

export function liveEnabled(): boolean {
  return receiverUrl() !== null;
}

const RECEIVER_PATH = "/api/bank-events/";

/**
 * A webhook of this dashboard's live balances: its URL is this dashboard's receiver path. One
 * whose token is not the current one was registered under an old NEXTAUTH_SECRET: the bank's
 * posts to it are refused, so it is replaced.
 */
export function liveHookKind(hookUrl: string): "current" | "stale" | null {
  const url = receiverUrl();
  if (!url) return null;
  if (hookUrl === url) return "current";
  try {
    const h = new URL(hookUrl);
    const mine = new URL(url);
    return h.origin === mine.origin && h.pathname.startsWith(RECEIVER_PATH) ? "stale" : null;
  } catch {
    return null;
  }
}

/**
 * Instances register under this lock of the dashboard database: listing the bank's webhooks then
 * registering the missing ones is not atomic at the bank, and two instances doing it at once
 * would both register, doubling every notification from then on.
 */
export const WEBHOOK_REGISTRATION_LOCK = 72420014;

/**
 * Registers a webhook on every account of the key that has none pointing at this dashboard,
 * replaces those registered under an old secret, and deletes all but the first of an account's
 * webhooks to this receiver (left by versions that registered without the lock). Returns how
 * many were registered.
 */
export async function ensureBankWebhooks(bank: BankClient, db?: DashboardDb): Promise<number> {
  const url = receiverUrl();
  if (!url) return 0;
  const held = db ?? (await getDashboardDb());
  return held.exclusive(WEBHOOK_REGISTRATION_LOCK, () => bringWebhooksUpToDate(bank, url));
}

async function bringWebhooksUpToDate(bank: BankClient, url: string): Promise<number> {
  const list = await bank.call("accountList");
  if (!list.ok) throw new Error(list.error.message);
  const accounts = list.data.ResponseData.flatMap((d) => d.CUSTACCT.map((a) => a.ACTNBR));
  const hooks = await bank.call("listWebhooks");
  if (!hooks.ok) throw new Error(hooks.error.message);
  const covered = new Set<string>();
  const remove: string[] = [];
  let stale = 0;
  // The bank lists a key's webhooks oldest first: the first of an account's stays.
  for (const h of hooks.data) {
    const kind = liveHookKind(h.WebHookUrl);
    if (kind === "current" && !covered.has(h.AccountNumber)) covered.add(h.AccountNumber);
    else if (kind === "current") remove.push(h.WebHookId);
    else if (kind === "stale") {
      remove.push(h.WebHookId);
      stale++;
    }
  }
  for (const webHookId of remove) {
    const r = await bank.call("deleteWebhook", { query: { webHookId } });
    if (!r.ok) throw new Error(r.error.message);
  }
  let added = 0;
  for (const account of accounts) {
    if (covered.has(account)) continue;
    const r = await bank.call("registerWebhook", {
      body: { AccountNumber: account, WebHookUrl: url, Description: LIVE_DESCRIPTION },
    });
    if (!r.ok) throw new Error(r.error.message);
    added++;
  }
  if (added || remove.length)
    log.info("balance webhooks brought up to date", {
      added,
      replacedStale: stale,
      removedDuplicates: remove.length - stale,
    });
  return added;
}

const KEY = Symbol.for("treasury.liveRegistration");
type Holder = { [KEY]?: { run: Promise<number>; at: number } };
const FORCED = Symbol.for("treasury.liveRegistrationForced");
type ForcedHolder = { [FORCED]?: Promise<number> };
/** A new listener checks the bank's webhooks again after this long (accounts opened since). */
const RECHECK_MS = 5 * 60_000;

/**
 * The first browser to listen sets the webhooks up; a listener arriving more than five minutes
 * after the last check checks again (accounts opened meanwhile), and a failure is retried by the
 * next listener.
 */
export function ensureBankWebhooksOnce(bank: BankClient, now = Date.now()): Promise<number> {
  const g = globalThis as Holder;
  const last = g[KEY];
  if (last && now - last.at < RECHECK_MS) return last.run;
  const run = ensureBankWebhooks(bank);
  const entry = { run, at: now };
  g[KEY] = entry;
  run.catch((err) => {
    log.warn("balance webhooks could not be registered; live updates wait for the next try", { err });
    if (g[KEY] === entry) g[KEY] = undefined;
  });
  return run;
}

/**
 * Checks the bank's webhooks now, whatever the time since the last check: call it after the
 * accounts changed (a new SEN account gets its webhook at once). Calls run one after another,
 * each a full check, so the latest change is always seen.
 */
export function ensureBalanceWebhooks(bank?: BankClient): Promise<number> {
  if (!liveEnabled()) return Promise.resolve(0);
  const g = globalThis as ForcedHolder & Holder;
  const run = (g[FORCED] ?? Promise.resolve(0))
    .catch(() => 0)
    .then(async () => ensureBankWebhooks(bank ?? (await getBankClient())));
  g[FORCED] = run;
  run.then(
    () => {
      g[KEY] = { run, at: Date.now() };
    },
    (err) => log.warn("balance webhooks could not be checked after an account change", { err }),
  );
  return run;
}

/**
 * Fire-and-forget form of ensureBalanceWebhooks for code that just changed the accounts (a new
 * SEN account): the check runs at once; a failure is logged and the periodic check covers it.
 */
export function accountsChanged(): void {
  void ensureBalanceWebhooks().catch(() => {});
}
