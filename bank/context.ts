// What every part of the bank is handed: settings, database, clock, keys, tokens, log.

import type { Logger } from "../lib/server/log.ts";
import type { CustomerDirectory } from "./auth/keys.ts";
import type { TokenService } from "./auth/tokens.ts";
import type { Clock } from "./clock.ts";
import type { BankConfig } from "./config.ts";
import type { BankDb } from "./db/client.ts";
import type { TransferExecutor } from "./ledger/transfers.ts";
import type { BankMetrics } from "./metrics.ts";
import type { DestinationCheck } from "./notify/destination.ts";

export interface Bank {
  config: BankConfig;
  db: BankDb;
  /** SEN transfers into the ledger (group commit on PostgreSQL). */
  transfers: TransferExecutor;
  clock: Clock;
  customers: CustomerDirectory;
  tokens: TokenService;
  log: Logger;
  metrics: BankMetrics;
  /** Where webhooks may go: judged at registration and again at every delivery's connection. */
  webhookDestinations: DestinationCheck;
  /** Set when a stop has begun: readiness answers 503 from then on. */
  lifecycle: { draining: boolean };
  /** Background work (settlement timer, webhook dispatcher) registers its stop function here. */
  onClose(fn: () => Promise<void> | void): void;
  /** Wakes the parts that react to a state change at once (dispatcher, settlement). */
  events: import("node:events").EventEmitter;
}
