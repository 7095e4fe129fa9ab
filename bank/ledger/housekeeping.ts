// Idempotency keys are kept at least 24 hours (DESIGN.md); older ones are removed hourly so the
// table does not grow without bound. 48 hours leaves a margin for clients that retry late.
import type { Bank } from "../context.ts";

export const IDEMPOTENCY_KEEP_HOURS = 48;

export async function purgeIdempotencyKeys(bank: Bank): Promise<number> {
  const cutoff = new Date(bank.clock.now().getTime() - IDEMPOTENCY_KEEP_HOURS * 3_600_000);
  const rows = await bank.db.query<{ n: number }>(
    "WITH d AS (DELETE FROM idempotency_keys WHERE created_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM d",
    [cutoff],
  );
  return rows[0].n;
}

export function startHousekeeping(bank: Bank): void {
  const timer = setInterval(() => {
    purgeIdempotencyKeys(bank).catch((err) => bank.log.error("idempotency purge failed", { err }));
  }, 3_600_000);
  timer.unref();
  bank.onClose(() => clearInterval(timer));
}
