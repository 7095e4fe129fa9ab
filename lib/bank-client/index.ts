// The process's bank client, configured from the environment (BANK_API_URL, BANK_SUBSCRIPTION_KEY).
import "server-only";
import { config } from "../config.ts";
import { getDashboardDb } from "../db/client.ts";
import { processSingleton } from "../server/process-singleton.ts";
import { BankClient } from "./client.ts";
import { TokenManager } from "./token-manager.ts";

export { BankClient } from "./client.ts";
export * from "./errors.ts";
export { TokenManager } from "./token-manager.ts";

const held = processSingleton<BankClient>("treasury.bankClient", async () => {
  const { bankApiUrl: bankUrl, bankSubscriptionKey: subscriptionKey } = config();
  if (!bankUrl || !subscriptionKey)
    throw new Error("BANK_API_URL and BANK_SUBSCRIPTION_KEY must be set for the dashboard to reach the bank");
  const db = await getDashboardDb();
  const tokens = new TokenManager({ db, bankUrl, subscriptionKey });
  return new BankClient({ bankUrl, subscriptionKey, tokens });
});

export const getBankClient = held.get;

/** Tests: use this client instead of one built from the environment. */
export const setBankClient = held.set;
