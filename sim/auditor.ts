// What the simulator judges as each operation answers (the state checker, checker.ts, judges the
// end): whose votes may count at the moment a decision lands, a vote cast within a day of a
// credential change, secrets in an answer, an idempotent answer repeated word for word, and the
// banks' clocks agreeing.
import type { Call } from "./history.ts";
import { CREDENTIALS_EMBARGO_MS, type DraftState, dollars, LINK_TOKEN, PERMS } from "./model.ts";
import type { Person } from "./schedule.ts";
import type { World } from "./world.ts";

/** Every 200 answer under one key must be the first one, word for word. */
export function idempotentAnswer(world: World, op: number, key: string, call: Call) {
  if (call.status !== 200 || !call.text) return;
  const rec = world.v2Answers.get(key);
  if (!rec) return;
  if (rec.first === undefined) rec.first = call.text;
  else if (rec.first !== call.text)
    world.violation(
      "idempotency.same-answer",
      op,
      `Idempotency-Key ${key}: an answer differs from the first (first op ${rec.op}): ${rec.first} vs ${call.text}`,
    );
}

/** Why the person's vote (a release, or an incoming-wire decision) cannot count now, or null. */
export function whyIneligible(
  world: World,
  who: Person,
  need: "release" | "act",
  preparedBy?: Person,
): string | null {
  const p = world.people[who];
  if (!p) return "is no user";
  if (who === preparedBy) return "prepared it";
  if (p.disabled) return "is disabled";
  if (!PERMS[need].includes(p.role)) return `is now ${p.role}`;
  if (p.resetPending) return "has a password reset pending";
  const since = p.credentialsAt === null ? Number.POSITIVE_INFINITY : Date.now() - p.credentialsAt;
  if (since < CREDENTIALS_EMBARGO_MS)
    return `had credentials reset or was invited ${Math.round(since / 1000)} s before`;
  return null;
}

export function eligibleCount(
  world: World,
  voters: Iterable<Person>,
  need: "release" | "act",
  preparedBy?: Person,
): number {
  return [...new Set(voters)].filter((v) => !whyIneligible(world, v, need, preparedBy)).length;
}

/** A vote on money was accepted: its voter must not be within a day of a credential change. */
export function voteCast(world: World, op: number, who: Person, need: "release" | "act", what: string) {
  const why = whyIneligible(world, who, need);
  if (why?.startsWith("had credentials"))
    world.violation(
      "vote.credentials-recent",
      op,
      `${who}'s vote on ${what} was accepted although ${who} ${why}`,
    );
}

/** A draft left: enough of its votes must have been able to count at one moment before. */
export function judgeDecision(world: World, op: number, d: DraftState) {
  const required = d.cents > world.releaseDual ? 2 : 1;
  // Fewer votes in the model than required is release.second-person's to report.
  if (d.approvers.size < required || d.bestEligible >= required) return;
  ineligibleDecision(world, op, `draft ${d.id} of $${dollars(d.cents)}`, d.approvers, "release", {
    required,
    best: d.bestEligible,
    preparedBy: d.preparedBy,
  });
}

export function ineligibleDecision(
  world: World,
  op: number,
  what: string,
  voters: Set<Person>,
  need: "release" | "act",
  o: { required: number; best: number; preparedBy?: Person },
) {
  const struck = [...voters]
    .map((v) => [v, whyIneligible(world, v, need, o.preparedBy)] as const)
    .filter(([, why]) => why);
  const recent = struck.some(([, why]) => why?.startsWith("had credentials"));
  world.violation(
    recent ? "vote.credentials-recent" : "vote.eligible-at-decision",
    op,
    `${what} left with at most ${o.best} vote(s) that could count at once (it needs ${o.required}); votes by ${[...voters].join(", ")}, of which not counting: ${struck.map(([v, why]) => `${v} ${why}`).join("; ")}`,
  );
}

/** Passwords, secrets and links anywhere in an answer: none may reach an administrator. */
export function secretsIn(answer: unknown, text: string | undefined): string[] {
  const out: string[] = [];
  const walk = (v: unknown, key: string) => {
    if (typeof v === "string") {
      if (/password|secret|token|link|url/i.test(key) && !/(At|Until)$/.test(key) && v.length >= 8)
        out.push(v);
    } else if (Array.isArray(v)) for (const x of v) walk(x, key);
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(answer, "");
  for (const m of (text ?? "").matchAll(LINK_TOKEN)) out.push(m[1]);
  return [...new Set(out)];
}

export function seeClock(world: World, op: number, bank: number, call: Call, bankMs: number) {
  if (!Number.isFinite(bankMs)) return;
  // The bank's clock lies in [bankMs - t1, bankMs - t0] ahead of ours; one seen later, through
  // any bank, must not be behind one seen earlier (2 s allowed for the database's own clock).
  const seen = { bank, t0: call.t0, t1: call.t1, bankMs };
  const earlier = world.clock.filter((c) => c.t1 <= seen.t0);
  const lead = Math.max(...earlier.map((c) => c.bankMs - c.t1), Number.NEGATIVE_INFINITY);
  if (seen.bankMs - seen.t0 < lead - 2000) {
    const behind = Math.round((lead - (seen.bankMs - seen.t0)) / 1000);
    world.violation(
      "clock.agrees",
      op,
      `bank${bank}'s sandbox clock is ${behind} s behind what another bank showed before`,
    );
  }
  world.clock.push(seen);
}
