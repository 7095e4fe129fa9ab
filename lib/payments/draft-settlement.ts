// Wires released while the wire system was down wait in the bank's backup log, their drafts
// queued; polled when drafts are listed or read, they end released or failed with the payment.
import "server-only";
import { appendAudit } from "../audit/log.ts";
import type { BankClient } from "../bank-client/client.ts";
import type { Queryable } from "../db/client.ts";
import type { DraftRow } from "./drafts.ts";

/**
 * Queued wires (sent to the backup log while the wire system was down) become released once the
 * bank's replay has moved the payment on, or failed when the replay canceled it. A bank that
 * cannot be read leaves them queued.
 */
export async function settleQueuedDrafts(db: Queryable, getBank: () => Promise<BankClient>): Promise<void> {
  const rows = await db.query<DraftRow>(
    "SELECT * FROM payment_drafts WHERE status = 'queued' AND payment_id IS NOT NULL ORDER BY prepared_at LIMIT 50",
  );
  if (!rows.length) return;
  const bank = await getBank();
  for (const r of rows) {
    const listed = await bank.call("listPayments", {
      query: { account_number: r.from_account, payment_id: r.payment_id as string },
    });
    if (!listed.ok) return;
    const p = listed.data.find((x) => x.payment_id === r.payment_id);
    if (!p || p.payment_status === "Pre-Approval") continue;
    const status = p.payment_status === "Canceled" ? "failed" : "released";
    const updated = await db.query<{ id: string }>(
      `UPDATE payment_drafts SET status = $2, bank_answer = $3 WHERE id = $1 AND status = 'queued' RETURNING id`,
      [
        r.id,
        status,
        JSON.stringify({
          payment_id: p.payment_id,
          payment_status: p.payment_status,
          payment_timestamp: p.time_stamp,
        }),
      ],
    );
    if (updated[0])
      await appendAudit(db, {
        actorId: r.decided_by ?? "system",
        actorEmail: r.decided_by_email ?? "system",
        action: "draft.reprocessed.wire",
        target: r.id,
        result: status,
        detail: { channel: "backup", paymentId: p.payment_id, bankStatus: p.payment_status },
      });
  }
}
