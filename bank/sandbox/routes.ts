// Every /sandbox route: customers and accounts, money and the clock, the demo, wires, and what the bank
// sent (webhook deliveries, e-mail). Each is behind X-Sandbox-Key and absent with BANK_SANDBOX=off.
import type { Bank } from "../context.ts";
import type { Router } from "../http/router.ts";
import { registerSandboxCoreRoutes } from "./core.ts";
import { registerSandboxDemoRoutes } from "./demo.ts";
import { registerSandboxNotifyRoutes } from "./notify.ts";
import { registerSandboxPaymentRoutes } from "./payments.ts";

export function registerSandboxRoutes(router: Router, bank: Bank) {
  registerSandboxCoreRoutes(router, bank);
  registerSandboxDemoRoutes(router, bank);
  registerSandboxPaymentRoutes(router, bank);
  registerSandboxNotifyRoutes(router, bank);
}
