// GET /sandbox/webhook-deliveries and GET /sandbox/mail: every delivery attempt, and every
// message filed in the sandbox mail box (bank/README.md, "The sandbox API").
import { z } from "zod";
import { str } from "../../lib/bank-api/fields.ts";
import type { SqlRow } from "../../lib/server/sql-row.ts";
import type { Bank } from "../context.ts";
import type { deliveryAttempts, outbox, sandboxMail } from "../db/schema.ts";
import type { Router } from "../http/router.ts";
import { sandboxRoute } from "./guard.ts";

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export const deliveriesQuery = z.object({
  accountNumber: str(20).optional(),
  messageId: str(64).optional(),
  webHookId: str(64).optional(),
  channel: z.enum(["http", "email"], { error: "must be http or email" }).optional(),
});

export const mailQuery = z.object({
  to: str(320).optional(),
  messageId: str(64).optional(),
});

type DeliveryRow = Pick<
  SqlRow<typeof deliveryAttempts>,
  | "id"
  | "message_id"
  | "channel"
  | "target"
  | "attempt"
  | "at"
  | "duration_ms"
  | "status_code"
  | "ok"
  | "error"
> &
  Pick<SqlRow<typeof outbox>, "webhook_id" | "state" | "payload"> & { account_number: string };
type MailRow = SqlRow<typeof sandboxMail>;

/** One delivery attempt as `GET /sandbox/webhook-deliveries` answers it. */
export const deliveryView = (r: DeliveryRow) => ({
  id: r.id,
  messageId: r.message_id,
  webHookId: r.webhook_id,
  accountNumber: r.account_number,
  channel: r.channel,
  target: r.target,
  attempt: r.attempt,
  at: iso(r.at),
  durationMs: r.duration_ms,
  statusCode: r.status_code,
  ok: r.ok,
  error: r.error,
  /** Where the notification stands now: pending (will be retried), delivered, failed. */
  state: r.state,
  notification: r.payload,
});
export type SandboxDelivery = ReturnType<typeof deliveryView>;

/** One sent e-mail as `GET /sandbox/mail` answers it. */
export const mailView = (r: MailRow) => ({
  id: r.id,
  to: r.to,
  subject: r.subject,
  text: r.text,
  messageId: r.message_id,
  at: iso(r.at),
  /** Files the message carried: `{ filename, contentType, contentBase64 }`. */
  attachments: r.attachments,
});
export type SandboxMail = ReturnType<typeof mailView>;

export function registerSandboxNotifyRoutes(router: Router, bank: Bank) {
  sandboxRoute(router, bank, "GET", "/sandbox/webhook-deliveries", deliveriesQuery, async (q) => {
    const rows = await bank.db.query<DeliveryRow>(
      `SELECT a.id, a.message_id, o.webhook_id, o.payload->>'AccountNumber' AS account_number, a.channel,
         a.target, a.attempt, a.at, a.duration_ms, a.status_code, a.ok, a.error, o.state, o.payload
       FROM delivery_attempts a JOIN outbox o ON o.id = a.outbox_id
       WHERE ($1::text IS NULL OR o.payload->>'AccountNumber' = $1)
         AND ($2::text IS NULL OR a.message_id = $2)
         AND ($3::text IS NULL OR o.webhook_id = $3)
         AND ($4::text IS NULL OR a.channel = $4)
       ORDER BY a.id`,
      [q.accountNumber ?? null, q.messageId ?? null, q.webHookId ?? null, q.channel ?? null],
    );
    return rows.map(deliveryView);
  });

  sandboxRoute(router, bank, "GET", "/sandbox/mail", mailQuery, async (q) => {
    const rows = await bank.db.query<MailRow>(
      `SELECT id, "to", subject, text, message_id, at, attachments FROM sandbox_mail
       WHERE ($1::text IS NULL OR position(lower($1) in lower("to")) > 0)
         AND ($2::text IS NULL OR message_id = $2)
       ORDER BY id`,
      [q.to ?? null, q.messageId ?? null],
    );
    return rows.map(mailView);
  });
}
