// The notifications panel: recent balance changes of the accounts a user may see, with the alerts
// they fired, and read/unread per user (everything up to a mark, plus single items).
import "server-only";
import type { NotificationItem, NotificationsResponse } from "../dashboard-api/alerts.ts";
import type { DashboardDb } from "../db/client.ts";
import { toLiveEvent } from "../live/hub.ts";

type Row = Parameters<typeof toLiveEvent>[0] & { read: boolean };

export async function listNotifications(
  db: DashboardDb,
  userId: string,
  accounts: Set<string>,
  limit: number,
): Promise<NotificationsResponse> {
  const visible = [...accounts];
  if (visible.length === 0) return { items: [], unread: 0 };
  const rows = await db.query<Row>(
    `SELECT e.seq, e.account_number, e.available_cents, e.previous_cents, e.received_at,
            COALESCE((SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind,
                        'thresholdCents', a.threshold_cents, 'notifyUsers', a.notify_users) ORDER BY a.id)
                      FROM alerts a WHERE a.event_seq = e.seq AND a.notify_users), '[]'::json) AS alerts,
            (e.seq <= COALESCE(m.read_through_seq, 0) OR r.event_seq IS NOT NULL) AS read
     FROM live_events e
     LEFT JOIN notification_marks m ON m.user_id = $1
     LEFT JOIN notification_reads r ON r.user_id = $1 AND r.event_seq = e.seq
     WHERE e.account_number = ANY($2::text[])
     ORDER BY e.seq DESC LIMIT $3`,
    [userId, visible, limit],
  );
  const [count] = await db.query<{ n: number }>(
    `SELECT count(*) AS n FROM live_events e
     WHERE e.account_number = ANY($2::text[])
       AND e.seq > COALESCE((SELECT read_through_seq FROM notification_marks WHERE user_id = $1), 0)
       AND NOT EXISTS (SELECT 1 FROM notification_reads r WHERE r.user_id = $1 AND r.event_seq = e.seq)`,
    [userId, visible],
  );
  const items: NotificationItem[] = rows.map((r) => ({ ...toLiveEvent(r), read: r.read }));
  return { items, unread: count.n };
}

export async function markRead(db: DashboardDb, userId: string, seq: number): Promise<void> {
  await db.query(
    `INSERT INTO notification_reads (user_id, event_seq)
     SELECT $1, seq FROM live_events WHERE seq = $2 ON CONFLICT DO NOTHING`,
    [userId, seq],
  );
}

export async function markAllRead(db: DashboardDb, userId: string): Promise<void> {
  await db.tx(async (q) => {
    await q.query(
      `INSERT INTO notification_marks (user_id, read_through_seq)
       VALUES ($1, (SELECT COALESCE(max(seq), 0) FROM live_events))
       ON CONFLICT (user_id) DO UPDATE SET read_through_seq = GREATEST(notification_marks.read_through_seq, EXCLUDED.read_through_seq)`,
      [userId],
    );
    // Single marks at or below the new line say nothing more.
    await q.query(
      `DELETE FROM notification_reads WHERE user_id = $1
       AND event_seq <= (SELECT read_through_seq FROM notification_marks WHERE user_id = $1)`,
      [userId],
    );
  });
}
