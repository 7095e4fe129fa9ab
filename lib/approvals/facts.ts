// What the policy evaluator is given on the server: the policies in force, a draft described as
// plain payment facts (its payee's history included), and its voters as they stand now, read
// FOR SHARE inside the deciding transaction so a role change or a disabling cannot land between
// the count and the decision (it waits for the decision, or the decision sees it).
import "server-only";
import { getDashboardSettings } from "../admin/settings-store.ts";
import { type Actor, appendAudit } from "../audit/log.ts";
import { credentialEmbargoUntil } from "../auth/credential-embargo.ts";
import { config } from "../config.ts";
import { PolicySetInput } from "../dashboard-api/policies.ts";
import type { DashboardDb, Queryable } from "../db/client.ts";
import { defaultPolicies, type PaymentFacts, type PolicySet, type Rail, type VoterState } from "./policy.ts";

/** Where the stated policy set is kept: a row of dashboard_settings of its own. */
const POLICY_KEY = "approval_policies";

/** The policy set an administrator stated (and a second approved), or null while there is none. */
export async function storedPolicySet(q: Queryable): Promise<PolicySet | null> {
  const rows = await q.query<{ value: unknown }>("SELECT value FROM dashboard_settings WHERE key = $1", [
    POLICY_KEY,
  ]);
  if (!rows[0]) return null;
  // A stored set that no longer fits the schema (a rule tightened since) gives way to the thresholds.
  const parsed = PolicySetInput.safeParse(rows[0].value);
  return parsed.success ? parsed.data : null;
}

/** The policies in force: the stated set, or today's thresholds as the default policy set. */
export async function policySetNow(q: Queryable): Promise<PolicySet> {
  return (await storedPolicySet(q)) ?? defaultPolicies(await getDashboardSettings(q));
}

/** Holds writers of the policy set one at a time until the transaction ends. */
export async function lockPolicies(q: Queryable): Promise<void> {
  await q.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`dashboard_settings:${POLICY_KEY}`]);
}

/** Puts an approved policy set in force, audited with the set it replaces and its story. */
export async function writePolicySet(
  q: Queryable,
  set: PolicySet,
  o: { from: PolicySet | null; by: Actor; detail: Record<string, unknown> },
): Promise<void> {
  await q.query(
    `INSERT INTO dashboard_settings (key, value, updated_by, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [POLICY_KEY, JSON.stringify(set), o.by.email],
  );
  await appendAudit(q, {
    actorId: o.by.id,
    actorEmail: o.by.email,
    action: "policies.update",
    target: POLICY_KEY,
    result: "ok",
    detail: { from: o.from, to: set, ...o.detail },
    ip: o.by.ip ?? null,
  });
}

interface VoterRow {
  id: string;
  email: string;
  role: string;
  disabled: boolean;
  password_must_change: boolean;
  locked_until: Date | null;
  credentials_changed_at: Date | null;
}

/**
 * The voters as they stand now, in the order of `ids`. `lock` reads them FOR SHARE: inside the
 * deciding transaction a concurrent demotion or disabling waits until the decision commits.
 */
export async function votersNow(
  q: Queryable,
  ids: readonly string[],
  o: { lock: boolean; now?: number },
): Promise<VoterState[]> {
  const now = o.now ?? Date.now();
  if (!ids.length) return [];
  const rows = await q.query<VoterRow>(
    `SELECT id, email, role, disabled, password_must_change, locked_until, credentials_changed_at FROM users
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
      // Judged when the vote is cast and again when the deciding vote lands, like every other
      // reason a vote stops counting: the one place the embargo rule meets a voter.
      credentialEmbargoUntil: credentialEmbargoUntil(r.credentials_changed_at, now)?.toISOString() ?? null,
    };
  });
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** A saved payee's history as the evaluator needs it: first paid, last changed, and by whom. */
export async function payeeFacts(q: Queryable, beneficiaryId: string | null): Promise<PaymentFacts["payee"]> {
  if (!beneficiaryId) return null;
  const rows = await q.query<{
    first_paid_at: Date | null;
    changed_at: Date | null;
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
  // A sum of bigints is numeric: cast back, a day's total being cents like any other.
  const rows = await q.query<{ by_preparer: number; by_account: number }>(
    `SELECT coalesce(sum((detail->>'amountCents')::bigint) FILTER (WHERE actor_id = $1), 0)::bigint AS by_preparer,
            coalesce(sum((detail->>'amountCents')::bigint) FILTER (WHERE detail->>'from' = $2), 0)::bigint AS by_account
     FROM audit_log
     WHERE action = 'transfer.sen' AND result = 'ok' AND at < $4
       AND at >= (date_trunc('day', $4::timestamptz AT TIME ZONE $3) AT TIME ZONE $3)`,
    [o.preparerId, o.account, o.timeZone, o.at ? new Date(o.at) : new Date()],
  );
  return {
    byPreparerCents: rows[0]?.by_preparer ?? 0,
    byAccountCents: rows[0]?.by_account ?? 0,
  };
}

/**
 * What a preparer sent alone today from each account, and in all, and what each account sent by
 * anyone: the daily totals a form shows the preparer before they send (the server counts again).
 */
export async function senSentTodayForForm(
  q: Queryable,
  o: { preparerId: string; timeZone: string },
): Promise<{ byPreparerCents: number; byAccountCents: Record<string, number> }> {
  const rows = await q.query<{ account: string; by_preparer: number; by_account: number }>(
    `SELECT detail->>'from' AS account,
            coalesce(sum((detail->>'amountCents')::bigint) FILTER (WHERE actor_id = $1), 0)::bigint AS by_preparer,
            coalesce(sum((detail->>'amountCents')::bigint), 0)::bigint AS by_account
     FROM audit_log
     WHERE action = 'transfer.sen' AND result = 'ok' AND at < $3
       AND at >= (date_trunc('day', $3::timestamptz AT TIME ZONE $2) AT TIME ZONE $2)
     GROUP BY detail->>'from'`,
    [o.preparerId, o.timeZone, new Date()],
  );
  return {
    byPreparerCents: rows.reduce((sum, r) => sum + r.by_preparer, 0),
    byAccountCents: Object.fromEntries(rows.map((r) => [r.account, r.by_account])),
  };
}

/** 32-bit FNV-1a of a text: the lock of one preparer or one account within its range. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(s, "utf8")) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}
/** Advisory lock ranges of their own (each 2^32 wide), far from every other lock of the dashboard. */
const PREPARER_TOTAL_LOCKS = 7_242_100_000_000_000;
const ACCOUNT_TOTAL_LOCKS = 7_242_200_000_000_000;

/**
 * Runs fn, which reads a preparer's and an account's daily totals and sends within them, while no
 * other instance does the same for this preparer or this account: without it two small transfers
 * landing together both read the total before either is recorded, and both go out past it. The
 * preparer's lock is always taken before the account's, so two senders never wait on each other.
 * Each lock is held on a connection of its own (on PGlite, in turn within the one process), not a
 * transaction, so the bank's answer is awaited without holding the database.
 */
export function withSenDailyTotals<T>(
  db: DashboardDb,
  o: { preparerId: string; account: string },
  fn: () => Promise<T>,
): Promise<T> {
  return db.exclusive(PREPARER_TOTAL_LOCKS + fnv1a(o.preparerId), () =>
    db.exclusive(ACCOUNT_TOTAL_LOCKS + fnv1a(o.account), fn),
  );
}

/** A draft's row as plain payment facts (a SEN draft's daily totals as they were when prepared). */
export async function draftFacts(
  q: Queryable,
  r: {
    kind: string;
    amount_cents: number;
    from_account: string;
    prepared_by: string;
    prepared_at: Date;
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
    amountCents: r.amount_cents,
    sourceAccount: r.from_account,
    preparerId: r.prepared_by,
    payee: await payeeFacts(q, r.beneficiary_id),
    ...(today
      ? { todayByPreparerCents: today.byPreparerCents, todayByAccountCents: today.byAccountCents }
      : {}),
  };
}
