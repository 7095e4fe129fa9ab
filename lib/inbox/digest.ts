// The approval digest: what has waited for approval longer than the administrator's setting
// (approvalDigestAfterMinutes) is e-mailed once, in one message to each person who may act on it
// (the inbox's rules: never a preparer for their own draft, never an approver who already voted).
// Each item is named by one digest only: the items a digest names are recorded in the same
// transaction as its messages, under a transaction lock that every instance takes first, so two
// instances looking at once send one digest, and the next look names nothing again. A corrected
// draft is a new version and waits anew.
import "server-only";
import nodemailer from "nodemailer";
import { getDashboardSettings } from "../admin/settings-store.ts";
import { appendAudit } from "../audit/log.ts";
import { isRole } from "../auth/permissions.ts";
import { bankNow } from "../bank-client/bank-time.ts";
import type { BankClient } from "../bank-client/client.ts";
import type { InboxItem } from "../dashboard-api/inbox.ts";
import type { DashboardDb, Queryable } from "../db/client.ts";
import { formatInstant } from "../format/dates.ts";
import { formatUsd, maskAccountNumber } from "../format/money.ts";
import { createLogger } from "../server/log.ts";
import { smtpOptions } from "../server/smtp.ts";
import { queueMail } from "./mail-outbox.ts";
import { actionableFor, collectWaiting, type Waiting } from "./read.ts";

export { queueMail };

const log = createLogger("digest");

/** Held by the transaction that decides a digest: one instance at a time, the others skip. */
export const DIGEST_LOCK = 72420031;

/** The item as a digest names it: a draft by its version, so a corrected draft waits anew. */
export const digestKey = (i: InboxItem) =>
  i.kind === "draft" ? `draft:${i.draft.id}@${i.draft.version}` : `wire:${i.wire.paymentId}`;

export interface DigestOptions {
  now?: Date;
  /** The dashboard's public address, for the link to the inbox. */
  publicUrl?: string;
  timeZone: string;
}

export interface DigestOutcome {
  /** false: another instance held the lock, this look did nothing. */
  ran: boolean;
  items: number;
  mails: { to: string; subject: string }[];
}

/** "Operating (••••0001)"; a SEN counterparty outside the customer's accounts by its number alone. */
function accountWords(n: string, names: Map<string, string>, own = true): string {
  const name = names.get(n);
  if (name) return `${name} (${maskAccountNumber(n)})`;
  return own ? `account ${maskAccountNumber(n)}` : `account ${n}`;
}

function line(i: InboxItem, timeZone: string, names: Map<string, string>): string {
  if (i.kind === "draft") {
    const d = i.draft;
    const to =
      d.kind === "wire"
        ? `wire to ${d.counterparty}`
        : `SEN transfer to ${accountWords(d.counterparty, names, false)}`;
    return `- Draft to release: ${to}, ${formatUsd(d.amountCents)}, from ${accountWords(d.fromAccount, names)}; prepared by ${d.preparedBy.email}, ${formatInstant(d.preparedAt, timeZone)}`;
  }
  const w = i.wire;
  return `- Incoming wire to decide: from ${w.originatorName || "an unnamed originator"}, ${formatUsd(w.amountCents)}, to ${w.accountName} (${maskAccountNumber(w.accountNumber)}); received ${formatInstant(i.waitingSince, timeZone)}`;
}

export function digestMail(
  user: { name: string },
  items: InboxItem[],
  o: { afterMinutes: number; publicUrl?: string; timeZone: string; accountNames?: Map<string, string> },
): { subject: string; text: string } {
  const n = items.length;
  const total = items.reduce((s, i) => s + i.amountCents, 0);
  const subject = `${n} ${n === 1 ? "item has" : "items have"} waited over ${o.afterMinutes} min for your approval`;
  const text = [
    `Hello ${user.name},`,
    "",
    `${n === 1 ? "This has" : `These ${n} have`} waited longer than ${o.afterMinutes} ${o.afterMinutes === 1 ? "minute" : "minutes"}, and you may act on ${n === 1 ? "it" : "them"} (${formatUsd(total)} in all):`,
    "",
    ...items.map((i) => line(i, o.timeZone, o.accountNames ?? new Map())),
    "",
    `Open the approvals inbox: ${(o.publicUrl ?? "").replace(/\/$/, "")}/approvals`,
    "",
    "Each item is named in one digest only; what still waits stays in the inbox.",
  ].join("\n");
  return { subject, text };
}

/**
 * One look: reads what waits, then, in one transaction under DIGEST_LOCK, keeps what no digest has
 * named yet, writes one message per person who may act on any of it and records the items named.
 */
export async function runApprovalDigest(
  db: DashboardDb,
  getBank: () => Promise<BankClient>,
  o: DigestOptions,
  waitingNow?: Waiting,
): Promise<DigestOutcome> {
  const now = o.now ?? new Date();
  const { approvalDigestAfterMinutes: afterMinutes } = await getDashboardSettings(db);
  const waiting = waitingNow ?? (await collectWaiting(db, getBank));
  // Each item's wait is measured on the clock that stamped it: a draft's on this machine's, an
  // incoming wire's on the bank's (a sandbox bank's clock may run days ahead of this machine's).
  const cutoff = {
    draft: now.getTime() - afterMinutes * 60_000,
    bank: (o.now ?? bankNow()).getTime() - afterMinutes * 60_000,
  };
  // Everything that waits, whoever may act on it: an administrator may act on all of it.
  const all = actionableFor({ id: "\u0000", role: "admin" }, waiting).filter(
    (i) => Date.parse(i.waitingSince) <= (i.kind === "draft" ? cutoff.draft : cutoff.bank),
  );
  if (!all.length) return { ran: true, items: 0, mails: [] };

  return db.tx(async (q) => {
    if (db.kind === "pg") {
      const [lock] = await q.query<{ ok: boolean }>("SELECT pg_try_advisory_xact_lock($1) AS ok", [
        DIGEST_LOCK,
      ]);
      if (!lock.ok) return { ran: false, items: 0, mails: [] };
    }
    const keys = all.map(digestKey);
    const named = new Set(
      (
        await q.query<{ item_key: string }>(
          "SELECT item_key FROM approval_digest_items WHERE item_key = ANY($1::text[])",
          [keys],
        )
      ).map((r) => r.item_key),
    );
    const fresh = all.filter((i) => !named.has(digestKey(i)));
    if (!fresh.length) return { ran: true, items: 0, mails: [] };

    const users = await q.query<{ id: string; email: string; name: string; role: string }>(
      "SELECT id, email, name, role FROM users WHERE NOT disabled ORDER BY email",
    );
    const freshKeys = new Set(fresh.map((i) => i.key));
    const mails: DigestOutcome["mails"] = [];
    for (const u of users) {
      if (!isRole(u.role)) continue;
      const theirs = actionableFor({ id: u.id, role: u.role }, waiting).filter((i) => freshKeys.has(i.key));
      if (!theirs.length) continue;
      const { subject, text } = digestMail(u, theirs, {
        afterMinutes,
        publicUrl: o.publicUrl,
        timeZone: o.timeZone,
        accountNames: waiting.accountNames,
      });
      await queueMail(q, { to: u.email, subject, text, kind: "approval_digest" });
      mails.push({ to: u.email, subject });
    }
    for (const i of fresh)
      await q.query("INSERT INTO approval_digest_items (item_key) VALUES ($1) ON CONFLICT DO NOTHING", [
        digestKey(i),
      ]);
    await appendAudit(q, {
      actorId: null,
      actorEmail: null,
      action: "approval_digest.sent",
      target: `${fresh.length} items`,
      result: "ok",
      detail: { items: fresh.map(digestKey), to: mails.map((m) => m.to), afterMinutes },
    });
    return { ran: true, items: fresh.length, mails };
  });
}

/** Attempts per message before it is left for a person to read on /mail. */
const MAX_ATTEMPTS = 10;

/**
 * Sends what the outbox holds through the SMTP server; each row is claimed by one instance
 * (FOR UPDATE SKIP LOCKED) for the time of its send. Without a server nothing is sent: the
 * messages stay in the dashboard, where each person reads theirs on /mail.
 */
export async function deliverMail(
  db: DashboardDb,
  smtp: { smtpUrl?: string; from: string },
): Promise<number> {
  if (!smtp.smtpUrl) return 0;
  const smtpUrl = smtp.smtpUrl;
  return db.tx(async (q) => {
    const rows = await q.query<{
      id: string;
      to: string;
      subject: string;
      text: string;
      attachment_name: string | null;
      attachment_type: string | null;
      attachment: string | null;
    }>(
      `SELECT id, "to", subject, text, attachment_name, attachment_type, attachment FROM mail_outbox
       WHERE sent_at IS NULL AND attempts < $1
       ORDER BY created_at LIMIT 20 FOR UPDATE SKIP LOCKED`,
      [MAX_ATTEMPTS],
    );
    if (!rows.length) return 0;
    const transport = nodemailer.createTransport(
      smtpOptions(smtpUrl, { variable: "DASHBOARD_SMTP_URL", timeoutMs: 10_000 }) as never,
    );
    const domain = /@([^>\s]+)/.exec(smtp.from)?.[1] ?? "treasury.localhost";
    let sent = 0;
    try {
      for (const r of rows) {
        try {
          await transport.sendMail({
            from: smtp.from,
            to: r.to.split(","),
            subject: r.subject,
            text: r.text,
            messageId: `<mail-${r.id}@${domain}>`,
            ...(r.attachment_name && r.attachment !== null
              ? {
                  attachments: [
                    {
                      filename: r.attachment_name,
                      content: r.attachment,
                      contentType: r.attachment_type ?? "application/octet-stream",
                    },
                  ],
                }
              : {}),
          });
          await q.query("UPDATE mail_outbox SET sent_at = now(), attempts = attempts + 1 WHERE id = $1", [
            r.id,
          ]);
          sent++;
        } catch (err) {
          await q.query("UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1", [
            r.id,
            String(err).slice(0, 500),
          ]);
          log.warn("dashboard e-mail could not be sent; it is tried again", { mail: r.id, err: String(err) });
        }
      }
    } finally {
      transport.close();
    }
    return sent;
  });
}

export interface MailRow {
  id: string;
  to: string;
  subject: string;
  text: string;
  kind: string;
  createdAt: string;
  sentAt: string | null;
}

/** The messages addressed to one person, newest first. */
export async function mailFor(db: Queryable, email: string, limit = 100): Promise<MailRow[]> {
  const rows = await db.query<{
    id: string;
    to: string;
    subject: string;
    text: string;
    kind: string;
    created_at: string | Date;
    sent_at: string | Date | null;
  }>(
    `SELECT id, "to", subject, text, kind, created_at, sent_at FROM mail_outbox
     WHERE $1 = ANY(string_to_array("to", ',')) ORDER BY created_at DESC LIMIT $2`,
    [email.toLowerCase(), limit],
  );
  return rows.map((r) => ({
    id: r.id,
    to: r.to,
    subject: r.subject,
    text: r.text,
    kind: r.kind,
    createdAt: new Date(r.created_at).toISOString(),
    sentAt: r.sent_at ? new Date(r.sent_at).toISOString() : null,
  }));
}
