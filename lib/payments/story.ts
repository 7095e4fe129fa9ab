// A payment's story for its detail page: who prepared, corrected, approved and released it (from
// the dashboard's draft and audit records, with each person's name), who decided an incoming wire,
// and each status the bank gave it with its time. Oldest first.
import "server-only";
import type { PaymentRecord } from "../bank-api/payments.ts";
import type { PaymentStoryStep } from "../dashboard-api/payments.ts";
import type { Queryable } from "../db/client.ts";

type AuditRow = {
  at: Date;
  action: string;
  result: string;
  who: string | null;
  email: string | null;
  /** When the release claimed the draft: before the bank's answer, which the audit entry follows. */
  decided_at: Date | null;
};
type DecisionRow = {
  created_at: Date;
  action: string;
  channel: string;
  state: string;
  approvers: { id: string; email: string }[];
  names: string[] | null;
};

const iso = (v: Date | string) => new Date(v).toISOString();
const person = (name: string | null, email: string | null) =>
  name && email ? `${name} (${email})` : (name ?? email ?? "someone");

const DECIDED = { approve: "Approved", cancel: "Canceled", return: "Returned" } as Record<string, string>;

/** The draft's audited steps, in words (a refused or stale attempt is no step of the story). */
function draftStep(r: AuditRow): PaymentStoryStep | null {
  const who = person(r.who, r.email);
  const at = iso(r.at);
  const [, step] = r.action.split(".");
  if (step === "create") return { at, title: "Prepared", who, note: null };
  if (step === "update" && r.result === "ok") return { at, title: "Corrected", who, note: null };
  if (step === "approve") return { at, title: "Approved (first of two)", who, note: "Nothing was sent yet." };
  if (r.action.startsWith("draft.release.") && (r.result === "released" || r.result === "queued"))
    return {
      at: r.decided_at ? iso(r.decided_at) : at,
      title: "Released",
      who,
      note:
        r.result === "queued"
          ? "The wire system was down: it went to the bank's backup log, sent when the system was back."
          : null,
    };
  if (r.action.startsWith("draft.release.") && r.result === "rejected by bank")
    return { at, title: "Refused by the bank at release", who, note: null };
  if (r.action === "draft.reject") return { at, title: "Rejected", who, note: null };
  if (r.action === "draft.reprocessed.wire")
    return { at, title: "Sent from the backup log", who: null, note: "The bank replayed its backup log." };
  return null;
}

/** The bank's own dates of the record, each a step. */
function bankSteps(p: PaymentRecord): PaymentStoryStep[] {
  const out: PaymentStoryStep[] = [];
  const incoming = p.direction === "Incoming";
  if (p.entry_date)
    out.push({
      at: p.entry_date,
      title: incoming ? "Arrived at the bank" : "Accepted by the bank",
      who: null,
      note: incoming ? "Awaiting approval" : null,
    });
  if (p.completion_date)
    out.push({ at: p.completion_date, title: "Completed at the bank", who: null, note: null });
  if (p.cancel_date) out.push({ at: p.cancel_date, title: "Canceled at the bank", who: null, note: null });
  return out;
}

export async function paymentStory(db: Queryable, p: PaymentRecord): Promise<PaymentStoryStep[]> {
  const audit = await db.query<AuditRow>(
    `SELECT a.at, a.action, a.result, u.name AS who, a.actor_email AS email, d.decided_at
     FROM audit_log a
     JOIN payment_drafts d ON d.id::text = a.target AND d.payment_id = $1
     LEFT JOIN users u ON u.id = a.actor_id
     WHERE a.action LIKE 'draft.%'
     ORDER BY a.at, a.id`,
    [p.payment_id],
  );
  const decisions = await db.query<DecisionRow>(
    `SELECT d.created_at, d.action, d.channel, d.state, d.approvers,
            (SELECT array_agg(coalesce(u.name, x.v->>'email') ORDER BY x.ord)
             FROM jsonb_array_elements(d.approvers) WITH ORDINALITY AS x(v, ord)
             LEFT JOIN users u ON u.id = x.v->>'id') AS names
     FROM incoming_wire_decisions d
     WHERE d.payment_id = $1 AND d.state NOT IN ('rejected', 'failed')
     ORDER BY d.created_at`,
    [p.payment_id],
  );
  const steps: PaymentStoryStep[] = [
    ...audit.map(draftStep).filter((s): s is PaymentStoryStep => s !== null),
    ...decisions.map((d) => ({
      at: iso(d.created_at),
      title: DECIDED[d.action] ?? d.action,
      who: (d.names ?? d.approvers.map((a) => a.email)).join(" and "),
      note: d.channel === "backup" ? "Through the bank's backup log: the wire system was down." : null,
    })),
    ...bankSteps(p),
  ];
  return steps.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}
