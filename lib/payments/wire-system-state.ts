// Whether the wire system is down, as far as the dashboard can know without sending: a wire or an
// incoming-wire decision that went to the bank's backup log after a 503 and has not been replayed
// yet. The bank replays its log when the system is back, and the queued items move on with it
// (settleQueuedDrafts, the incoming-wire queue's refresh), so the signal ends by itself.
import "server-only";
import type { WireSystemResponse } from "../dashboard-api/wires.ts";
import type { Queryable } from "../db/client.ts";

export async function wireSystemState(db: Queryable): Promise<WireSystemResponse> {
  const [r] = await db.query<{ since: Date | null; queued: number }>(
    `SELECT min(at) AS since, count(*) AS queued FROM (
       SELECT coalesce(decided_at, prepared_at) AS at FROM payment_drafts WHERE status = 'queued'
       UNION ALL
       SELECT created_at FROM incoming_wire_decisions WHERE state = 'queued') q`,
  );
  const queued = r?.queued ?? 0;
  return {
    down: queued > 0,
    since: queued > 0 && r.since ? r.since.toISOString() : null,
    queued,
  };
}
