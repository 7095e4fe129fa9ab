// Background work of payments: the settlement timer, and at start the replay of requests logged
// during a wire-system outage that ended while the bank was stopped.
import type { Bank } from "../context.ts";
import { pendingBackupEntries, replayBackupLog } from "./backup.ts";
import { startSettlementTimer } from "./settlement.ts";
import { wireSystemStatus } from "./wire-system.ts";

export async function startPaymentWorkers(bank: Bank): Promise<void> {
  if ((await wireSystemStatus(bank.db)) === "up" && (await pendingBackupEntries(bank.db)) > 0) {
    // A failed replay must not keep the bank from serving: the entries stay pending for the next one.
    try {
      const n = await replayBackupLog(bank);
      bank.log.info("replayed payment requests logged during the wire-system outage", { entries: n });
    } catch (err) {
      bank.log.error("replay of the payment backup log failed; entries stay pending", { err });
    }
  }
  startSettlementTimer(bank);
}
