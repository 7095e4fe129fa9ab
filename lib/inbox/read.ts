// The approvals inbox: what waits, and of it what one person may act on. A draft waits for
// release by anyone with wires.release but its preparer and those who already approved this
// version; an incoming wire waits for anyone with wires.act, but a wire holding a first vote
// (above the two-approver limit) waits only for the approvers who have not voted. Wires already
// on their way to the bank (sending, queued, unconfirmed) wait for the bank, not for a person.
import "server-only";
import { accountNames } from "../accounts/views.ts";
import { hasPermission, type Role } from "../auth/permissions.ts";
import type { BankClient } from "../bank-client/client.ts";
import type { InboxCount, InboxItem, InboxResponse, ScheduleNotice } from "../dashboard-api/inbox.ts";
import type { IncomingWire } from "../dashboard-api/incoming-wires.ts";
import type { Draft } from "../dashboard-api/wires.ts";
import type { Queryable } from "../db/client.ts";
import { readQueue } from "../incoming-wires/queue.ts";
import { settleQueuedDrafts } from "../payments/draft-settlement.ts";
import { listDrafts } from "../payments/drafts.ts";
import { statementNoticesFor } from "../statements/delivery-notices.ts";

/** Open drafts read at once: more than any team leaves waiting. */
const DRAFT_LIMIT = 5000;

export interface Waiting {
  drafts: Draft[];
  wires: IncomingWire[];
  asOf: string;
  /** The customer's accounts by number: their names, for words outside a page (the digest). */
  accountNames?: Map<string, string>;
}

export interface InboxUser {
  id: string;
  role: Role;
}

/** Everything that waits for a person, whoever that is. */
export async function collectWaiting(
  db: Queryable,
  getBank: () => Promise<BankClient>,
  want: { drafts: boolean; wires: boolean; names?: boolean } = { drafts: true, wires: true, names: true },
): Promise<Waiting> {
  const [drafts, queue, names] = await Promise.all([
    want.drafts
      ? settleQueuedDrafts(db, getBank).then(() => listDrafts(db, { open: true, limit: DRAFT_LIMIT }))
      : [],
    want.wires ? getBank().then((bank) => readQueue(db, bank)) : null,
    want.names ? getBank().then(accountNames) : undefined,
  ]);
  return {
    drafts: drafts.filter((d) => d.status === "pending"),
    wires: queue?.wires ?? [],
    asOf: queue?.asOf ?? new Date().toISOString(),
    accountNames: names,
  };
}

/** An instant as ISO text, or the text as it came when it does not parse. */
const isoOr = (t: string) => (Number.isFinite(Date.parse(t)) ? new Date(t).toISOString() : t);

export const mayRelease = (u: InboxUser, d: Draft) =>
  hasPermission(u.role, "wires.release") &&
  d.status === "pending" &&
  d.preparedBy.id !== u.id &&
  !d.approvals.some((a) => a.id === u.id);

export const mayDecide = (u: InboxUser, w: IncomingWire) =>
  hasPermission(u.role, "wires.act") &&
  (w.state === "pending" ||
    (w.state === "awaiting_second_approval" && !w.votes.some((v) => v.userId === u.id)));

/** The items one person may act on, oldest first. */
export function actionableFor(u: InboxUser, w: Waiting): InboxItem[] {
  const items: InboxItem[] = [
    ...w.drafts
      .filter((d) => mayRelease(u, d))
      .map(
        (d): InboxItem => ({
          kind: "draft",
          key: `draft:${d.id}`,
          waitingSince: d.preparedAt,
          amountCents: d.amountCents,
          draft: d,
        }),
      ),
    ...w.wires
      .filter((x) => mayDecide(u, x))
      .map(
        (x): InboxItem => ({
          kind: "incoming_wire",
          key: `wire:${x.paymentId}`,
          waitingSince: isoOr(x.receivedAt),
          amountCents: x.amountCents,
          wire: x,
        }),
      ),
  ];
  return items.sort((a, b) => a.waitingSince.localeCompare(b.waitingSince) || a.key.localeCompare(b.key));
}

export function countOf(u: InboxUser, items: InboxItem[]): InboxCount {
  const drafts = items.filter((i) => i.kind === "draft").length;
  return {
    count: items.length,
    drafts,
    incomingWires: items.length - drafts,
    oldestSince: items[0]?.waitingSince ?? null,
    mayRelease: hasPermission(u.role, "wires.release"),
    mayDecideWires: hasPermission(u.role, "wires.act"),
  };
}

/** How long a scheduled payment that did not go stays in the inbox. */
const NOTICE_DAYS = 7;

/**
 * Scheduled payments that did not go in the last NOTICE_DAYS, for the people told of them: the
 * series' preparer and its approvers (every approver and administrator when no one approved it),
 * the same people the e-mail goes to. A cancelled series' failures are no longer news.
 */
export async function scheduleNoticesFor(db: Queryable, u: InboxUser): Promise<ScheduleNotice[]> {
  const approver = u.role === "approver" || u.role === "admin";
  const rows = await db.query<{
    series_id: string;
    nominal_day: string;
    day: string;
    name: string;
    amount_cents: number | null;
    series_amount_cents: number;
    from_account: string;
    counterparty: string;
    reason: string | null;
    updated_at: Date;
  }>(
    `SELECT o.series_id, o.nominal_day, o.day, o.amount_cents, o.reason, o.updated_at,
            s.name, s.amount_cents AS series_amount_cents, s.from_account, s.counterparty
     FROM series_occurrences o JOIN payment_series s ON s.id = o.series_id
     WHERE o.status = 'failed' AND o.updated_at > now() - make_interval(days => $3) AND s.status <> 'cancelled'
       AND (s.prepared_by = $1
            OR EXISTS (SELECT 1 FROM series_approvals a WHERE a.series_id = s.id AND a.approver_id = $1)
            OR ($2 AND NOT EXISTS (SELECT 1 FROM series_approvals a WHERE a.series_id = s.id)))
     ORDER BY o.updated_at DESC, o.series_id LIMIT 100`,
    [u.id, approver, NOTICE_DAYS],
  );
  return rows.map((r) => ({
    key: `schedule:${r.series_id}/${r.nominal_day}`,
    seriesId: r.series_id,
    name: r.name,
    day: r.day,
    amountCents: r.amount_cents ?? r.series_amount_cents,
    fromAccount: r.from_account,
    counterparty: r.counterparty,
    reason: r.reason ?? "it was not sent",
    at: new Date(r.updated_at).toISOString(),
  }));
}

/** The inbox of one person: nothing is read that their role cannot act on. */
export async function readInbox(
  db: Queryable,
  getBank: () => Promise<BankClient>,
  u: InboxUser,
): Promise<InboxResponse> {
  const want = { drafts: hasPermission(u.role, "wires.release"), wires: hasPermission(u.role, "wires.act") };
  const waiting =
    want.drafts || want.wires
      ? await collectWaiting(db, getBank, want)
      : {
          drafts: [],
          wires: [],
          asOf: new Date().toISOString(),
        };
  const items = actionableFor(u, waiting);
  const [notices, statementNotices] = await Promise.all([
    scheduleNoticesFor(db, u),
    statementNoticesFor(db, u),
  ]);
  return {
    ...countOf(u, items),
    items,
    notices,
    statementNotices,
    asOf: waiting.asOf,
  };
}
