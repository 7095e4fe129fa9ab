// Which accounts' events a signed-in user may receive: those of the bank's account list that the
// user's role may read. The list is cached briefly per process; an event for an account the cache
// does not know re-reads it once (a new account), and a list that grew re-checks the webhooks.
import "server-only";
import { hasPermission, type Role } from "../auth/permissions.ts";
import type { BankClient } from "../bank-client/client.ts";
import { getBankClient } from "../bank-client/index.ts";
import { ensureBalanceWebhooks } from "./receiver.ts";

const TTL_MS = 30_000;
/** An unknown account re-reads the list at most this often (a stream of foreign events stays cheap). */
const MISS_REFRESH_MS = 5_000;

const KEY = Symbol.for("treasury.liveAccounts");
type Cache = { at: number; accounts: Set<string>; loading: Promise<Set<string>> | null };
type Holder = { [KEY]?: Cache };

function cache(): Cache {
  const g = globalThis as Holder;
  g[KEY] ??= { at: 0, accounts: new Set(), loading: null };
  return g[KEY];
}

async function load(bank?: BankClient): Promise<Set<string>> {
  const c = cache();
  if (!c.loading) {
    c.loading = (async () => {
      const client = bank ?? (await getBankClient());
      const r = await client.call("accountList");
      if (!r.ok) throw new Error(r.error.message);
      const next = new Set(r.data.ResponseData.flatMap((d) => d.CUSTACCT.map((a) => a.ACTNBR)));
      const grew = c.at > 0 && [...next].some((a) => !c.accounts.has(a));
      c.accounts = next;
      c.at = Date.now();
      if (grew) void ensureBalanceWebhooks(client).catch(() => {});
      return next;
    })().finally(() => {
      c.loading = null;
    });
  }
  return c.loading;
}

/** The customer's accounts (cached for 30 s). */
export async function customerAccounts(bank?: BankClient): Promise<Set<string>> {
  const c = cache();
  if (Date.now() - c.at < TTL_MS) return c.accounts;
  return load(bank);
}

/** Whether a user of this role may receive events of the account. */
export async function mayReceive(role: Role, accountNumber: string, bank?: BankClient): Promise<boolean> {
  if (!hasPermission(role, "accounts.read")) return false;
  const c = cache();
  let accounts = await customerAccounts(bank);
  if (!accounts.has(accountNumber) && Date.now() - c.at >= MISS_REFRESH_MS)
    accounts = await load(bank).catch(() => accounts);
  return accounts.has(accountNumber);
}

/** Tests: forget the cached list. */
export function resetAccountCache(): void {
  (globalThis as Holder)[KEY] = undefined;
}
