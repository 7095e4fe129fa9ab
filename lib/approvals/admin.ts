// The administration of approval policies: the set in force with what waits, a change to it
// (always a change for a second administrator: a policy decides who moves money), the check that
// the people a policy names exist, and the preview of what a set would have required of the last
// 30 days of payments beside what the set in force required.
import "server-only";
import { pendingChanges, requestChange } from "../admin/changes.ts";
import type { Actor } from "../audit/log.ts";
import { businessDayFormatter } from "../bank-api/dates.ts";
import { formatUsd } from "../bank-api/money.ts";
import { config } from "../config.ts";
import type { PoliciesResponse, PolicyPreviewResponse, PolicySetInput } from "../dashboard-api/policies.ts";
import type { DashboardDb, Queryable } from "../db/client.ts";
import { invalid } from "../route-kit/errors.ts";
import { draftFacts, policySetNow, storedPolicySet } from "./facts.ts";
import { evaluate, type PaymentFacts, type PolicySet, RAIL_WORDS, RAILS, type Rail } from "./policy.ts";

export async function readPolicies(q: Queryable): Promise<PoliciesResponse> {
  const stored = await storedPolicySet(q);
  return {
    set: stored ?? (await policySetNow(q)),
    isDefault: stored === null,
    pending: await pendingChanges(q, ["policies"]),
  };
}

/** Every person a policy names must be a user: a typo would make a group no one can satisfy. */
async function checkPeople(q: Queryable, set: PolicySetInput): Promise<void> {
  const named = new Set<string>();
  for (const p of set.policies) {
    for (const id of p.when.preparerIds ?? []) named.add(id);
    for (const id of p.group?.userIds ?? []) named.add(id);
  }
  if (!named.size) return;
  const rows = await q.query<{ id: string }>("SELECT id FROM users WHERE id = ANY($1::text[])", [[...named]]);
  const known = new Set(rows.map((r) => r.id));
  const problems = set.policies.flatMap((p, i) => [
    ...(p.when.preparerIds ?? [])
      .filter((id) => !known.has(id))
      .map((id) => ({ field: `policies.${i}.when.preparerIds`, message: `names no user (${id})` })),
    ...(p.group?.userIds ?? [])
      .filter((id) => !known.has(id))
      .map((id) => ({ field: `policies.${i}.group.userIds`, message: `names no user (${id})` })),
  ]);
  if (problems.length) throw invalid(problems);
}

/** Asks for the set to be put in force: it waits for a second administrator, whichever way it goes. */
export async function requestPolicies(
  db: DashboardDb,
  actor: Actor,
  set: PolicySetInput,
): Promise<PoliciesResponse> {
  await checkPeople(db, set);
  return db.tx(async (q) => {
    const requested = await requestChange(q, actor, {
      kind: "policies",
      target: "approval_policies",
      targetLabel: "Approval policies",
      before: await storedPolicySet(q),
      after: set,
    });
    return { ...(await readPolicies(q)), requested };
  });
}

const DAY_MS = 86_400_000;

/**
 * What the proposed set would have required of the last 30 days of payments (drafts, SEN transfers
 * sent alone, incoming-wire decisions), beside what the set in force required, per rail.
 */
export async function previewPolicies(
  q: Queryable,
  proposed: PolicySet,
  now = Date.now(),
): Promise<PolicyPreviewResponse> {
  const since = new Date(now - 30 * DAY_MS);
  const current = await policySetNow(q);
  const payments: PaymentFacts[] = [];
  const drafts = await q.query<{
    kind: string;
    amount_cents: number;
    from_account: string;
    prepared_by: string;
    prepared_at: Date;
    beneficiary_id: string | null;
  }>(
    `SELECT kind, amount_cents, from_account, prepared_by, prepared_at, beneficiary_id FROM payment_drafts
     WHERE prepared_at >= $1 ORDER BY prepared_at DESC LIMIT 500`,
    [since],
  );
  for (const d of drafts) payments.push(await draftFacts(q, d));
  // Each transfer sent alone with the daily totals that stood before it (by its preparer, from its
  // account, on its business day), so the proposed daily totals are judged as the live path judges them.
  const sent = await q.query<{
    actor_id: string | null;
    amount: number | null;
    account: string | null;
    at: Date;
  }>(
    `SELECT actor_id, (detail->>'amountCents')::bigint AS amount, detail->>'from' AS account, at FROM audit_log
     WHERE action = 'transfer.sen' AND result = 'ok' AND at >= $1 ORDER BY at DESC LIMIT 2000`,
    [since],
  );
  const dayOf = businessDayFormatter(config().timeZone);
  const sofar = new Map<string, number>();
  for (const s of sent.reverse()) {
    if (!s.amount) continue;
    const amountCents = s.amount;
    const day = dayOf(s.at);
    const byPreparer = `p:${day}:${s.actor_id}`;
    const byAccount = `a:${day}:${s.account}`;
    payments.push({
      rail: "sen",
      amountCents,
      sourceAccount: s.account ?? "",
      preparerId: s.actor_id,
      todayByPreparerCents: sofar.get(byPreparer) ?? 0,
      todayByAccountCents: sofar.get(byAccount) ?? 0,
    });
    sofar.set(byPreparer, (sofar.get(byPreparer) ?? 0) + amountCents);
    sofar.set(byAccount, (sofar.get(byAccount) ?? 0) + amountCents);
  }
  const incoming = await q.query<{ amount_cents: number; account_number: string }>(
    `SELECT amount_cents, account_number FROM incoming_wire_decisions
     WHERE created_at >= $1 AND state NOT IN ('rejected', 'failed') ORDER BY created_at DESC LIMIT 2000`,
    [since],
  );
  for (const w of incoming)
    payments.push({
      rail: "incoming_wire",
      amountCents: w.amount_cents,
      sourceAccount: w.account_number,
      preparerId: null,
    });

  const rows = new Map<Rail, PolicyPreviewResponse["rows"][number]>(
    RAILS.map((rail) => [rail, { rail, payments: 0, more: 0, fewer: 0, examples: [] }]),
  );
  for (const p of payments) {
    const row = rows.get(p.rail);
    if (!row) continue;
    row.payments++;
    const was = evaluate(p, current, now);
    const would = evaluate(p, proposed, now);
    if (would.approvers === was.approvers) continue;
    if (would.approvers > was.approvers) row.more++;
    else row.fewer++;
    if (row.examples.length < 3)
      row.examples.push(
        `${RAIL_WORDS[p.rail].replace(/s$/, "")} of ${formatUsd(p.amountCents)}: ${was.approvers} → ${would.why}`,
      );
  }
  return { since: since.toISOString(), rows: [...rows.values()] };
}
