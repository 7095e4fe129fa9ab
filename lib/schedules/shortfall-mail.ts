// E-mails the shortfalls the balance ahead foresees (lib/schedules/ahead-read.ts): each account's
// first day below zero or below its low alert line, once per account, day and line, to everyone
// who may move or approve money. The inbox card shows the same shortfalls to whoever opens it;
// the e-mail reaches the team while no one does, days before the money runs short. Several
// instances may look at once: the mail is queued in the transaction that first names the shortfall
// (approval_digest_items, the table of things a mail has named once), so it goes once.
import "server-only";
import { accountNames, ownAccountNumbers } from "../accounts/views.ts";
import { hasPermission, isRole } from "../auth/permissions.ts";
import type { BankClient } from "../bank-client/client.ts";
import type { DashboardDb } from "../db/client.ts";
import { dayInWords } from "../format/dates.ts";
import { accountInWords, formatUsd } from "../format/money.ts";
import { queueMail } from "../inbox/mail-outbox.ts";
import { readBalanceAhead } from "./ahead-read.ts";
import { AHEAD_KIND_WORDS } from "./balance-ahead.ts";

/** How often an instance looks, at most: the projection reads every account's balance at the bank. */
export const SHORTFALL_LOOK_MS = 15 * 60_000;

/** The key a shortfall is named by once: a later, different shortfall of the account is told anew. */
export const shortfallKey = (account: string, day: string, line: "zero" | "alert") =>
  `shortfall:${account}:${day}:${line}`;

export interface ShortfallMailOutcome {
  /** Shortfalls named for the first time by this look. */
  told: string[];
  mails: { to: string; subject: string }[];
}

export async function mailShortfalls(
  db: DashboardDb,
  bank: BankClient,
  o: { publicUrl?: string } = {},
): Promise<ShortfallMailOutcome> {
  const [own, names] = await Promise.all([ownAccountNumbers(bank), accountNames(bank)]);
  const { accounts } = await readBalanceAhead(db, bank, [...own].sort());
  const out: ShortfallMailOutcome = { told: [], mails: [] };
  for (const a of accounts) {
    const s = a.shortfall;
    if (!s) continue;
    const key = shortfallKey(a.accountNumber, s.day, s.line);
    const account = accountInWords(a.accountNumber, names.get(a.accountNumber));
    const subject = `Balance ahead: ${account} ${s.line === "zero" ? "falls below zero" : "falls below its alert line"} on ${dayInWords(s.day)}`;
    const causes = s.causes.map(
      (c) => `- ${c.label}: ${formatUsd(-c.amountCents)} (${AHEAD_KIND_WORDS[c.kind].toLowerCase()})`,
    );
    if (s.moreCauses) causes.push(`- and ${s.moreCauses} more payments out`);
    const link = o.publicUrl
      ? `\n\nThe balance ahead: ${o.publicUrl.replace(/\/$/, "")}/accounts/${a.accountNumber}`
      : "";
    const text = [
      `${account} is projected at ${formatUsd(s.projectedCents)} at the end of ${dayInWords(s.day)}, below ${s.line === "zero" ? "zero" : `its alert line of ${formatUsd(s.lineCents)}`}.`,
      `Available today: ${formatUsd(a.availableCents)}.`,
      "",
      "The payments out that bring it there, the largest first:",
      ...causes,
      "",
      "Fund the account, or skip, move or reject one of these before that day.",
    ].join("\n");
    const mails = await db.tx(async (q) => {
      const named = await q.query(
        "INSERT INTO approval_digest_items (item_key) VALUES ($1) ON CONFLICT DO NOTHING RETURNING item_key",
        [key],
      );
      if (!named.length) return [];
      // Whoever may move money: the roles' permissions decide, not a list of role names.
      const people = (
        await q.query<{ email: string; role: string }>(
          "SELECT email, role FROM users WHERE NOT disabled ORDER BY email",
        )
      ).filter((u) => isRole(u.role) && hasPermission(u.role, "transfers.create"));
      for (const p of people)
        await queueMail(q, { to: p.email, subject, text: text + link, kind: "balance_ahead.shortfall" });
      return people.map((p) => ({ to: p.email, subject }));
    });
    if (mails.length) out.told.push(key);
    out.mails.push(...mails);
  }
  return out;
}

/**
 * What the projection rests on in the dashboard's own tables: a change is looked at on the next
 * tick. Small tables only: occurrences (which grow with every run) are left out. A skipped one only
 * lifts the balance ahead, and a paid one moves from the projection into the bank's balance, which
 * the interval's look reads.
 */
const INPUTS_FINGERPRINT = `
  SELECT concat_ws('|',
    (SELECT count(*) || ':' || coalesce(max(updated_at)::text, '') FROM payment_series),
    (SELECT count(*) || ':' || coalesce(max(approved_at)::text, '') FROM series_approvals),
    (SELECT count(*) || ':' || coalesce(max(updated_at)::text, '') FROM sweeps),
    (SELECT count(*) || ':' || coalesce(max(approved_at)::text, '') FROM sweep_approvals),
    (SELECT count(*) || ':' || coalesce(sum(version), 0) FROM payment_drafts WHERE status = 'pending'),
    (SELECT count(*) || ':' || coalesce(max(updated_at)::text, '') FROM alert_rules)) AS f`;

const last = { at: 0, fingerprint: "" };

/**
 * The schedule ticker's look: at once when a payment, sweep or alert line changed since the last
 * look, else every SHORTFALL_LOOK_MS (balances move at the bank meanwhile). Null when it did not look.
 */
export async function lookForShortfalls(
  db: DashboardDb,
  bank: BankClient,
  o: { publicUrl?: string; now?: number } = {},
): Promise<ShortfallMailOutcome | null> {
  const now = o.now ?? Date.now();
  const [{ f }] = await db.query<{ f: string }>(INPUTS_FINGERPRINT);
  if (f === last.fingerprint && now - last.at < SHORTFALL_LOOK_MS) return null;
  // Noted before the look: a failed look is tried again on the next change, or after the interval.
  last.at = now;
  last.fingerprint = f;
  return mailShortfalls(db, bank, o);
}
