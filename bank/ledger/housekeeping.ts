// Hourly clean-up so tables do not grow without bound. Idempotency keys are kept at least 24
// hours (docs/decisions.md, "Idempotency-Key"); 48 leaves a margin for clients that retry late.

import type { SqlRow } from "../../lib/server/sql-row.ts";
import type { Bank } from "../context.ts";
import type { outbox } from "../db/schema.ts";

export const IDEMPOTENCY_KEEP_HOURS = 48;

export async function purgeIdempotencyKeys(bank: Bank): Promise<number> {
  const cutoff = new Date(bank.clock.now().getTime() - IDEMPOTENCY_KEEP_HOURS * 3_600_000);
  const rows = await bank.db.query<{ n: number }>(
    "WITH d AS (DELETE FROM idempotency_keys WHERE created_at < $1 RETURNING 1) SELECT count(*) AS n FROM d",
    [cutoff],
  );
  return rows[0].n;
}

/** Finished notifications (delivered or given up) and their attempts are kept 30 days. */
export const NOTIFICATION_KEEP_DAYS = 30;

export async function purgeFinishedNotifications(bank: Bank): Promise<number> {
  const cutoff = new Date(bank.clock.now().getTime() - NOTIFICATION_KEEP_DAYS * 86_400_000);
  return bank.db.tx(async (q) => {
    const rows = await q.query<Pick<SqlRow<typeof outbox>, "id">>(
      "DELETE FROM outbox WHERE state <> 'pending' AND created_at < $1 RETURNING id",
      [cutoff],
    );
    if (rows.length)
      await q.query("DELETE FROM delivery_attempts WHERE outbox_id = ANY($1::bigint[])", [
        rows.map((r) => r.id),
      ]);
    return rows.length;
  });
}

export function startHousekeeping(bank: Bank): void {
  const timer = setInterval(() => {
    purgeIdempotencyKeys(bank).catch((err) => bank.log.error("idempotency purge failed", { err }));
    purgeFinishedNotifications(bank).catch((err) => bank.log.error("notification purge failed", { err }));
  }, 3_600_000);
  timer.unref();
  bank.onClose(() => clearInterval(timer));
}
