// The process's bank client, configured from the environment (BANK_API_URL, BANK_SUBSCRIPTION_KEY).
import "server-only";
import { config } from "../config.ts";
import { getDashboardDb } from "../db/client.ts";
import { BankClient } from "./client.ts";
import { TokenManager } from "./token-manager.ts";

export { BankClient } from "./client.ts";
export * from "./errors.ts";
export { TokenManager } from "./token-manager.ts";

const KEY = Symbol.for("treasury.bankClient");
type Holder = { [KEY]?: Promise<BankClient> };

export function getBankClient(): Promise<BankClient> {
  const g = globalThis as Holder;
  if (!g[KEY]) {
    const p = (async () => {
      const { bankApiUrl: bankUrl, bankSubscriptionKey: subscriptionKey } = config();
      if (!bankUrl || !subscriptionKey)
        throw new Error(
          "BANK_API_URL and BANK_SUBSCRIPTION_KEY must be set for the dashboard to reach the bank",
        );
      const db = await getDashboardDb();
      const tokens = new TokenManager({ db, bankUrl, subscriptionKey });
      return new BankClient({ bankUrl, subscriptionKey, tokens });
    })();
    g[KEY] = p;
    p.catch(() => {
      if (g[KEY] === p) g[KEY] = undefined;
    });
  }
  return g[KEY];
}

/** Tests: use this client instead of one built from the environment. */
export function setBankClient(client: BankClient | undefined): void {
  (globalThis as Holder)[KEY] = client ? Promise.resolve(client) : undefined;
}
