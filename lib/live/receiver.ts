// Where the bank sends this dashboard's balance notifications, and keeping the bank's webhooks
// pointing there. The path carries a token derived from NEXTAUTH_SECRET (stable across restarts
// and instances, unguessable), and every notification is checked against the customer's webhook
// secret (BANK_WEBHOOK_SECRET) before it is believed.
import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { BankClient } from "../bank-client/client.ts";
import { config, requireAuthSecret } from "../config.ts";
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

/** Registers a webhook on every account of the key that has none pointing at this dashboard. */
export async function ensureBankWebhooks(bank: BankClient): Promise<number> {
  const url = receiverUrl();
  if (!url) return 0;
  const list = await bank.call("accountList");
  if (!list.ok) throw new Error(list.error.message);
  const accounts = list.data.ResponseData.flatMap((d) => d.CUSTACCT.map((a) => a.ACTNBR));
  const hooks = await bank.call("listWebhooks");
  if (!hooks.ok) throw new Error(hooks.error.message);
  const covered = new Set(hooks.data.filter((h) => h.WebHookUrl === url).map((h) => h.AccountNumber));
  let added = 0;
  for (const account of accounts) {
    if (covered.has(account)) continue;
    const r = await bank.call("registerWebhook", {
      body: { AccountNumber: account, WebHookUrl: url, Description: LIVE_DESCRIPTION },
    });
    if (!r.ok) throw new Error(r.error.message);
    added++;
  }
  if (added) log.info("registered balance webhooks", { added });
  return added;
}

const KEY = Symbol.for("treasury.liveRegistration");
type Holder = { [KEY]?: { run: Promise<number>; at: number } };
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
