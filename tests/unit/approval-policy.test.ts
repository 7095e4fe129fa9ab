// The approval policy evaluator under generated payments, policies and role changes between votes
// (fast-check, 10,000 cases): no release with fewer eligible approvers than the most demanding
// matching policy requires, never a self-approval, the same answer for the same input; and
// today's thresholds as the default policy give today's answers.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_VELOCITY,
  defaultPolicies,
  evaluate,
  type PaymentFacts,
  type Policy,
  type PolicySet,
  RAILS,
  type Rail,
  tally,
  type VoterState,
} from "../../lib/approvals/policy.ts";

const NOW = Date.parse("2026-11-27T15:00:00Z");
const DAY = 86_400_000;
const USERS = ["u0", "u1", "u2", "u3", "u4", "u5"];
const ACCOUNTS = ["1000000001", "1000000002", "2000000001"];
const ROLES = ["viewer", "preparer", "approver", "admin"];

const instant = fc.integer({ min: -90, max: 2 }).map((d) => new Date(NOW + d * DAY).toISOString());
const cents = fc.oneof(
  fc.integer({ min: 1, max: 500_000_000 }),
  fc.constantFrom(25_000_000, 25_000_001, 100_000_000, 100_000_001),
);

const payment: fc.Arbitrary<PaymentFacts> = fc
  .record({
    rail: fc.constantFrom(...RAILS),
    amountCents: cents,
    sourceAccount: fc.constantFrom(...ACCOUNTS),
    preparerId: fc.constantFrom(...USERS),
    payee: fc.option(
      fc.record({
        firstPaidAt: fc.option(instant, { nil: null }),
        changedAt: fc.option(instant, { nil: null }),
        lastEditorId: fc.option(fc.constantFrom(...USERS), { nil: null }),
      }),
      { nil: null },
    ),
    todayByPreparerCents: fc.integer({ min: 0, max: 200_000_000 }),
    todayByAccountCents: fc.integer({ min: 0, max: 600_000_000 }),
  })
  .map((p) => ({ ...p, preparerId: p.rail === "incoming_wire" ? null : p.preparerId }));

const policy: fc.Arbitrary<Policy> = fc.record(
  {
    id: fc.uuid(),
    name: fc.constantFrom("Policy A", "Policy B", "Policy C"),
    when: fc.record(
      {
        rails: fc.subarray([...RAILS], { minLength: 1 }),
        sourceAccounts: fc.subarray(ACCOUNTS, { minLength: 1 }),
        aboveCents: fc.integer({ min: 0, max: 300_000_000 }),
        upToCents: fc.integer({ min: 1, max: 500_000_000 }),
        payeeNewWithinDays: fc.integer({ min: 1, max: 60 }),
        preparerIds: fc.subarray(USERS, { minLength: 1 }),
      },
      { requiredKeys: [] },
    ),
    approvers: fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>,
    group: fc.record({ name: fc.constant("Treasury leads"), userIds: fc.subarray(USERS) }),
  },
  { requiredKeys: ["id", "name", "when", "approvers"] },
);

const policySet: fc.Arbitrary<PolicySet> = fc.record({
  policies: fc.array(policy, { maxLength: 5 }),
  velocity: fc.record({
    perPreparerDailyCents: fc.option(fc.integer({ min: 1, max: 300_000_000 }), { nil: null }),
    perAccountDailyCents: fc.option(fc.integer({ min: 1, max: 900_000_000 }), { nil: null }),
  }),
});

const voter = (id: string): fc.Arbitrary<VoterState> =>
  fc.record({
    id: fc.constant(id),
    email: fc.constant(`${id}@x.example`),
    role: fc.constantFrom(...ROLES),
    disabled: fc.boolean(),
    passwordMustChange: fc.boolean(),
    lockedUntil: fc.option(instant, { nil: null }),
    credentialEmbargoUntil: fc.option(instant, { nil: null }),
  });

/** A vote, or a change to a person's standing, in the order they happen. */
type Step = { vote: string } | { change: VoterState };
const steps: fc.Arbitrary<Step[]> = fc.array(
  fc.oneof(
    fc.constantFrom(...USERS).map((u) => ({ vote: u })),
    fc.constantFrom(...USERS).chain((u) => voter(u).map((v) => ({ change: v }))),
  ),
  { maxLength: 14 },
);

// An independent reading of the rules, written apart from the evaluator, to check it against.
function oracleMatches(p: Policy, pay: PaymentFacts): boolean {
  const w = p.when;
  if (w.rails !== undefined && w.rails.indexOf(pay.rail) < 0) return false;
  if (w.sourceAccounts !== undefined && w.sourceAccounts.indexOf(pay.sourceAccount) < 0) return false;
  if (w.aboveCents !== undefined && pay.amountCents <= w.aboveCents) return false;
  if (w.upToCents !== undefined && pay.amountCents > w.upToCents) return false;
  if (w.preparerIds !== undefined && (pay.preparerId === null || w.preparerIds.indexOf(pay.preparerId) < 0))
    return false;
  if (w.payeeNewWithinDays !== undefined) {
    const payee = pay.payee;
    if (!payee) return false;
    const recent = (at: string | null) => at !== null && NOW - Date.parse(at) <= w.payeeNewWithinDays! * DAY;
    if (!(payee.firstPaidAt === null || recent(payee.firstPaidAt) || recent(payee.changedAt))) return false;
  }
  return true;
}
function oracleRequired(pay: PaymentFacts, set: PolicySet): number {
  let n = 0;
  for (const p of set.policies) if (oracleMatches(p, pay)) n = Math.max(n, p.approvers);
  if (pay.rail !== "sen") return Math.max(n, 1);
  const v = set.velocity;
  if (
    n === 0 &&
    ((v.perPreparerDailyCents !== null &&
      (pay.todayByPreparerCents ?? 0) + pay.amountCents > v.perPreparerDailyCents) ||
      (v.perAccountDailyCents !== null &&
        (pay.todayByAccountCents ?? 0) + pay.amountCents > v.perAccountDailyCents))
  )
    return 1;
  return n;
}
function oracleEligible(v: VoterState, pay: PaymentFacts, groups: string[][]): boolean {
  const right = pay.rail === "incoming_wire" ? ["approver", "admin"] : ["approver", "admin"];
  return (
    v.id !== pay.preparerId &&
    !v.disabled &&
    right.includes(v.role) &&
    !v.passwordMustChange &&
    !(v.lockedUntil && Date.parse(v.lockedUntil) > NOW) &&
    !(v.credentialEmbargoUntil && Date.parse(v.credentialEmbargoUntil) > NOW) &&
    v.id !== pay.payee?.lastEditorId &&
    groups.every((g) => g.includes(v.id))
  );
}

describe("the approval policy evaluator", () => {
  it("never releases with fewer eligible approvers than required, never counts the preparer, answers the same twice (10,000 cases)", () => {
    let releases = 0;
    fc.assert(
      fc.property(payment, policySet, fc.tuple(...USERS.map(voter)), steps, (pay, set, start, events) => {
        // People as they stand, changed between votes; the deciding moment reads them as they are then.
        const standing = new Map(start.map((v) => [v.id, v]));
        const votes: string[] = [];
        for (const e of events) {
          if ("vote" in e) {
            if (!votes.includes(e.vote)) votes.push(e.vote);
          } else standing.set(e.change.id, e.change);
        }
        const voters = votes.map((id) => standing.get(id) as VoterState);
        const t = tally(pay, set, voters, NOW);
        expect(tally(pay, set, voters, NOW)).toEqual(t);

        const required = oracleRequired(pay, set);
        expect(t.requirement.approvers).toBe(required);
        expect(t.requirement.approvers).toBeGreaterThanOrEqual(0);
        expect(t.requirement.approvers).toBeLessThanOrEqual(3);
        // The group that binds is the deciding policy's.
        const groups = t.requirement.group ? [t.requirement.group.userIds] : [];
        for (const c of t.counted) {
          expect(c.id).not.toBe(pay.preparerId);
          expect(oracleEligible(c, pay, groups)).toBe(true);
        }
        for (const s of t.struck) expect(oracleEligible(s.voter, pay, groups)).toBe(false);
        expect(new Set(t.counted.map((c) => c.id)).size).toBe(t.counted.length);
        if (t.enough) {
          releases++;
          const eligible = voters.filter((v) => oracleEligible(v, pay, groups));
          expect(eligible.length).toBeGreaterThanOrEqual(Math.max(required, 1));
        }
      }),
      { numRuns: 10_000, seed: 20261127 },
    );
    // The run exercised releases, not only refusals.
    expect(releases).toBeGreaterThan(100);
  }, 300_000);

  it("reads today's three thresholds as the default policy and says which applied", () => {
    const set = defaultPolicies({
      senReleaseThresholdCents: 25_000_000,
      releaseDualApprovalCents: 100_000_000,
      incomingWireDualApprovalCents: 100_000_000,
    });
    const pay = (rail: Rail, amountCents: number, today = 0): PaymentFacts => ({
      rail,
      amountCents,
      sourceAccount: ACCOUNTS[0],
      preparerId: rail === "incoming_wire" ? null : "u0",
      todayByPreparerCents: today,
      todayByAccountCents: today,
    });
    const need = (p: PaymentFacts) => evaluate(p, set, NOW);
    expect(need(pay("sen", 25_000_000)).approvers).toBe(0);
    expect(need(pay("sen", 25_000_001))).toMatchObject({
      approvers: 1,
      why: "SEN transfers over $250,000.00: 1 approver",
    });
    expect(need(pay("sen", 100_000_001)).approvers).toBe(2);
    expect(need(pay("wire", 1))).toMatchObject({ approvers: 1, why: "Wires: 1 approver" });
    expect(need(pay("wire", 100_000_000)).approvers).toBe(1);
    expect(need(pay("wire", 100_000_001))).toMatchObject({
      approvers: 2,
      why: "Wires over $1,000,000.00: 2 approvers",
    });
    expect(need(pay("incoming_wire", 100_000_000)).approvers).toBe(1);
    expect(need(pay("incoming_wire", 100_000_001)).approvers).toBe(2);
    // The daily total the default adds: a small SEN transfer past it becomes a draft.
    expect(DEFAULT_VELOCITY.perPreparerDailyCents).toBe(100_000_000);
    expect(need(pay("sen", 1_000_00, 99_950_000))).toMatchObject({
      approvers: 1,
      why: "Over the daily total of $1,000,000.00 for one preparer: 1 approver",
    });
  });

  it("says why a vote no longer counts", () => {
    const set = defaultPolicies({
      senReleaseThresholdCents: 1,
      releaseDualApprovalCents: 1,
      incomingWireDualApprovalCents: 1,
    });
    const base: VoterState = {
      id: "u1",
      email: "u1@x.example",
      role: "approver",
      disabled: false,
      passwordMustChange: false,
      lockedUntil: null,
    };
    const pay: PaymentFacts = {
      rail: "wire",
      amountCents: 200_000_000_00,
      sourceAccount: ACCOUNTS[0],
      preparerId: "u0",
      payee: { firstPaidAt: null, changedAt: null, lastEditorId: "u5" },
    };
    const why = (v: Partial<VoterState>) => tally(pay, set, [{ ...base, ...v }], NOW).struck[0]?.why;
    expect(why({})).toBeUndefined();
    expect(why({ role: "viewer" })).toBe("is no longer an approver (now viewer)");
    expect(why({ disabled: true })).toBe("is disabled");
    expect(why({ passwordMustChange: true })).toBe("has a password reset pending");
    expect(why({ lockedUntil: new Date(NOW + 60_000).toISOString() })).toBe(
      "is locked out after failed sign-ins",
    );
    expect(why({ id: "u0" })).toBe("prepared this payment");
    expect(why({ id: "u5" })).toBe("last changed this payee");
    expect(why({ credentialEmbargoUntil: new Date(NOW + DAY).toISOString() })).toMatch(
      /credentials changed recently/,
    );
  });
});
