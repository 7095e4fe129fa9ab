// A statement delivery given up (its eighth attempt failed) is told in the inbox of the people its
// e-mail goes to: the subscription's owner and the administrators. It is read from the delivery
// row itself, so however many instances ran the attempts it is one notice, and it leaves the inbox
// the moment the day is no longer failed (delivered after "Retry now", or retried again).
import type { StatementNotice } from "../dashboard-api/inbox.ts";
import type { Queryable } from "../db/client.ts";

/** Notices shown at once: more than a team leaves failed. */
const NOTICE_LIMIT = 100;

/** The failed deliveries one person is told of, newest business day first. */
export async function statementNoticesFor(
  db: Queryable,
  u: { id: string; role: string },
): Promise<StatementNotice[]> {
  const rows = await db.query<{
    subscription_id: string;
    business_day: string;
    from_day: string;
    to_day: string;
    attempts: number;
    last_error: string | null;
    failed_at: Date | string | null;
    name: string;
    accounts: string[];
    later_delivered_day: string | null;
  }>(
    // The owner is recorded by e-mail address (as the failure e-mail is addressed); a cancelled
    // subscription's failed days cannot be retried, so they are no longer news.
    `SELECT d.subscription_id, d.business_day, d.from_day, d.to_day, d.attempts, d.last_error, d.failed_at,
            s.name, s.accounts,
            (SELECT max(l.business_day) FROM statement_deliveries l
             WHERE l.subscription_id = d.subscription_id AND l.status = 'delivered'
               AND l.business_day > d.business_day) AS later_delivered_day
     FROM statement_deliveries d JOIN statement_subscriptions s ON s.id = d.subscription_id
     WHERE d.status = 'failed' AND s.cancelled_at IS NULL
       AND ($2 OR EXISTS (SELECT 1 FROM users u WHERE u.id = $1 AND lower(u.email) = lower(s.created_by)))
     ORDER BY d.business_day DESC, s.name, d.subscription_id LIMIT ${NOTICE_LIMIT}`,
    [u.id, u.role === "admin"],
  );
  return rows.map((r) => ({
    key: `statement:${r.subscription_id}/${r.business_day}`,
    subscriptionId: r.subscription_id,
    name: r.name,
    businessDay: r.business_day,
    fromDay: r.from_day,
    toDay: r.to_day,
    accounts: r.accounts,
    attempts: Number(r.attempts),
    reason: r.last_error ?? "it was not sent",
    failedAt: new Date(r.failed_at ?? 0).toISOString(),
    laterDeliveredDay: r.later_delivered_day,
  }));
}
