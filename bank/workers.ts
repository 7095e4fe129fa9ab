// Background work of the bank. Each worker registers its stop function with bank.onClose.
import type { Bank } from "./context.ts";
import { startTableMaintenance } from "./db/maintenance.ts";
import { startHousekeeping } from "./ledger/housekeeping.ts";
import { startDispatcher } from "./notify/dispatcher.ts";
import { startPaymentWorkers } from "./payments/worker.ts";

export async function startWorkers(bank: Bank): Promise<void> {
  await startPaymentWorkers(bank);
  await startDispatcher(bank);
  startHousekeeping(bank);
  startTableMaintenance(bank);
}
