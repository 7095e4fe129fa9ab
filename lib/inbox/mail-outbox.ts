// The dashboard's outbox: a message is written in the transaction that decides to send it, then
// delivered through DASHBOARD_SMTP_URL (deliverMail, digest.ts) and kept for the person's /mail.
import { randomUUID } from "node:crypto";
import type { Queryable } from "../db/client.ts";

export async function queueMail(
  q: Queryable,
  m: {
    to: string;
    subject: string;
    text: string;
    kind: string;
    /** One text file sent with the message. */
    attachment?: { name: string; type: string; content: string };
  },
): Promise<string> {
  const id = randomUUID();
  await q.query(
    `INSERT INTO mail_outbox (id, "to", subject, text, kind, attachment_name, attachment_type, attachment)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      id,
      m.to.toLowerCase(),
      m.subject,
      m.text,
      m.kind,
      m.attachment?.name ?? null,
      m.attachment?.type ?? null,
      m.attachment?.content ?? null,
    ],
  );
  return id;
}
