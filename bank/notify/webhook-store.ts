// Registered webhooks, always read and changed through the owning customer: another customer's
// webhook is indistinguishable from none.
import { randomBytes } from "node:crypto";
import type { RegisterWebhookRequest, Webhook } from "../../lib/bank-api/webhooks.ts";
import type { SqlRow } from "../../lib/server/sql-row.ts";
import type { BankDb, Queryable } from "../db/client.ts";
import type { webhooks } from "../db/schema.ts";

type WebhookRow = Pick<
  SqlRow<typeof webhooks>,
  "id" | "account_number" | "description" | "url" | "emails" | "sms"
>;

const COLUMNS = "id, account_number, description, url, emails, sms";

export function toWebhook(r: WebhookRow): Webhook {
  return {
    WebHookId: r.id,
    AccountNumber: r.account_number,
    Description: r.description,
    WebHookUrl: r.url,
    Emails: r.emails,
    Sms: r.sms,
  };
}

export const newWebhookId = () => `wh_${randomBytes(12).toString("hex")}`;

export async function insertWebhook(
  db: Queryable,
  customerId: number,
  w: RegisterWebhookRequest,
  now: Date,
): Promise<Webhook> {
  const rows = await db.query<WebhookRow>(
    `INSERT INTO webhooks (id, customer_id, account_number, description, url, emails, sms, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [
      newWebhookId(),
      customerId,
      w.AccountNumber,
      w.Description ?? "",
      w.WebHookUrl ?? "",
      w.Emails?.trim() ?? "",
      w.Sms?.trim() ?? "",
      now,
    ],
  );
  return toWebhook(rows[0]);
}

export async function webhooksOfCustomer(
  db: Queryable,
  customerId: number,
  filter: { accountNumber?: string; webHookId?: string },
): Promise<Webhook[]> {
  const rows = await db.query<WebhookRow>(
    `SELECT ${COLUMNS} FROM webhooks
     WHERE customer_id = $1 AND ($2::text IS NULL OR account_number = $2) AND ($3::text IS NULL OR id = $3)
     ORDER BY created_at, id`,
    [customerId, filter.accountNumber || null, filter.webHookId || null],
  );
  return rows.map(toWebhook);
}

/**
 * Deletes the customer's webhook; its notifications still waiting are given up with it, so a
 * receiver that was removed for being wrong is not called for another day. False when not found.
 */
export async function deleteWebhook(db: BankDb, customerId: number, id: string): Promise<boolean> {
  return db.tx(async (q) => {
    const gone = await q.query("DELETE FROM webhooks WHERE id = $1 AND customer_id = $2 RETURNING id", [
      id,
      customerId,
    ]);
    if (!gone.length) return false;
    await q.query(
      `UPDATE outbox SET state = 'failed', last_error = 'webhook deleted'
       WHERE webhook_id = $1 AND state = 'pending'`,
      [id],
    );
    return true;
  });
}
