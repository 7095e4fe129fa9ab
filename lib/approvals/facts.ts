// What the policy evaluator is given on the server: the policies in force, a draft described as
// plain payment facts (its payee's history included), and its voters as they stand now, read
// FOR SHARE inside the deciding transaction so a role change or a disabling cannot land between
// the count and the decision (it waits for the decision, or the decision sees it).
import "server-only";
import { config } from "../config.ts";
import type { Queryable } from "../db/client.ts";
import { getDashboardSettings } from "../settings.ts";
import { defaultPolicies, type PaymentFacts, type PolicySet, type Rail, type VoterState } from "./policy.ts";

/** The policies in force: today the administrator's thresholds as the default policy set. */
export async function policySetNow(q: Queryable): Promise<PolicySet> {
  return defaultPolicies(await getDashboardSettings(q));
}

interface VoterRow {
  id: string;
  email: string;
  role: string;
  disabled: boolean;
  password_must_change: boolean;
  locked_until: Date | string | null;
}

/**
 * The voters as they stand now, in the order of `ids`. `lock` reads them FOR SHARE: inside the
 * deciding transaction a concurrent demotion or disabling waits until the decision commits.
 */
export async function votersNow(
  q: Queryable,
  ids: readonly string[],
  o: { lock: boolean },
): Promise<VoterState[]> {
  if (!ids.length) return [];
  const rows = await q.query<VoterRow>(
    `SELECT id, email, role, disabled, password_must_change, locked_until FROM users
     WHERE id = ANY($1::text[]) ORDER BY id ${o.lock ? "FOR SHARE" : ""}`,
    [[...ids]],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const r = byId.get(id);
    // A voter whose account is gone counts as disabled.
    if (!r)
      return { id, email: "", role: "none", disabled: true, passwordMustChange: false, lockedUntil: null };
    return {
      id: r.id,
      email: r.email,
      role: r.role,
      disabled: r.disabled,
      passwordMustChange: r.password_must_change,
      lockedUntil: r.locked_until ? new Date(r.locked_until).toISOString() : null,
    };
  });
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** A saved payee's history as the evaluator needs it: first paid, last changed, and by whom. */
export async function payeeFacts(q: Queryable, beneficiaryId: string | null): Promise<PaymentFacts["payee"]> {
  if (!beneficiaryId) return null;
  const rows = await q.query<{
    first_paid_at: Date | string | null;
    changed_at: Date | string | null;
    changed_by: string | null;
  }>(
    `SELECT (SELECT min(decided_at) FROM payment_drafts
             WHERE beneficiary_id = $1 AND status IN ('released', 'queued')) AS first_paid_at,
            c.decided_at AS changed_at, c.changed_by
     FROM (SELECT 1) one
     LEFT JOIN LATERAL (SELECT decided_at, changed_by FROM beneficiary_changes
                        WHERE beneficiary_id = $1 AND status = 'approved'
                        ORDER BY decided_at DESC LIMIT 1) c ON true`,
    [beneficiaryId],
  );
  const r = rows[0];
  return {
    firstPaidAt: iso(r?.first_paid_at ?? null),
    changedAt: iso(r?.changed_at ?? null),
    lastEditorId: r?.changed_by ?? null,
  };
}

/**
 * SEN transfers sent without a second person on the business day (in `timeZone`) of `at`, before
 * `at` (now when not given), in cents: by this preparer, and from this account, read from the
 * audit of each transfer done once. A draft's totals are those of the moment it was prepared.
 */
export async function senSentToday(
  q: Queryable,
  o: { preparerId: string; account: string; timeZone: string; at?: Date | string },
): Promise<{ byPreparerCents: number; byAccountCents: number }> {
  const rows = await q.query<{ by_preparer: string | number; by_account: string | number }>(
    `SELECT coalesce(sum((detail->>'amountCents')::bigint) FILTER (WHERE actor_id = $1), 0) AS by_preparer,
            coalesce(sum((detail->>'amountCents')::bigint) FILTER (WHERE detail->>'from' = $2), 0) AS by_account
     FROM audit_log
     WHERE action = 'transfer.sen' AND result = 'ok' AND at < $4
       AND at >= (date_trunc('day', $4::timestamptz AT TIME ZONE $3) AT TIME ZONE $3)`,
    [o.preparerId, o.account, o.timeZone, o.at ? new Date(o.at) : new Date()],
  );
  return {
    byPreparerCents: Number(rows[0]?.by_preparer ?? 0),
    byAccountCents: Number(rows[0]?.by_account ?? 0),
  };
}

/** A draft's row as plain payment facts (a SEN draft's daily totals as they were when prepared). */
export async function draftFacts(
  q: Queryable,
  r: {
    kind: string;
    amount_cents: number | string;
    from_account: string;
    prepared_by: string;
    prepared_at: Date | string;
    beneficiary_id: string | null;
  },
): Promise<PaymentFacts> {
  const rail: Rail = r.kind === "wire" ? "wire" : "sen";
  const today =
    rail === "sen"
      ? await senSentToday(q, {
          preparerId: r.prepared_by,
          account: r.from_account,
          timeZone: config().timeZone,
          at: r.prepared_at,
        })
      : null;
  return {
    rail,
    amountCents: Number(r.amount_cents),
    sourceAccount: r.from_account,
    preparerId: r.prepared_by,
    payee: await payeeFacts(q, r.beneficiary_id),
    ...(today
      ? { todayByPreparerCents: today.byPreparerCents, todayByAccountCents: today.byAccountCents }
      : {}),
  };
}
