// Every route of the bank, by area.
import type { Bank } from "../context.ts";
import type { Router } from "../http/router.ts";
import { registerSandboxRoutes } from "../sandbox/routes.ts";
import { registerAccountRoutes } from "./accounts.ts";
import { registerHistoryRoutes } from "./history.ts";
import { registerMetaRoutes } from "./meta.ts";
import { registerPaymentRoutes } from "./payments.ts";
import { registerTokenRoutes } from "./token.ts";
import { registerTransferRoutes } from "./transfers.ts";
import { registerWebhookRoutes } from "./webhooks.ts";
import { registerWireSummaryRoutes } from "./wiresummary.ts";

export function registerRoutes(router: Router, bank: Bank) {
  registerMetaRoutes(router, bank);
  registerTokenRoutes(router, bank);
  registerAccountRoutes(router, bank);
  registerTransferRoutes(router, bank);
  registerHistoryRoutes(router, bank);
  registerWebhookRoutes(router, bank);
  registerPaymentRoutes(router, bank);
  registerWireSummaryRoutes(router, bank);
  registerSandboxRoutes(router, bank);
}
