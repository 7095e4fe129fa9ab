// The crossing rule of balance alerts: for any run of balances, a line fires exactly once each
// time the balance goes from its safe side to the other, and never twice in a row.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type RuleState, step } from "../../lib/alerts/evaluate.ts";

function run(rule: RuleState, balances: number[]) {
  const fired: { i: number; kind: string }[] = [];
  let state = rule;
  for (const [i, b] of balances.entries()) {
    const r = step(state, b);
    state = r.next;
    for (const f of r.fired) fired.push({ i, kind: f.kind });
  }
  return fired;
}

describe("balance alert crossings", () => {
  it("fires below once per fall under the line and re-arms at or above it", () => {
    const rule = { belowCents: 50_000, aboveCents: null, belowArmed: true, aboveArmed: true };
    expect(run(rule, [60_000, 40_000, 30_000, 50_000, 49_999, 49_998, 80_000, 1]).map((f) => f.i)).toEqual([
      1, 4, 7,
    ]);
  });

  it("matches the count of crossings for any series and both lines", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(fc.integer({ min: -2_000_000, max: 2_000_000 }), { maxLength: 60 }),
        (low, gap, balances) => {
          const high = low + gap;
          const fired = run(
            { belowCents: low, aboveCents: high, belowArmed: true, aboveArmed: true },
            balances,
          );
          // Starting armed is starting on the safe side.
          const below = balances.filter((b, i) => b < low && (i === 0 || balances[i - 1] >= low)).length;
          const above = balances.filter((b, i) => b > high && (i === 0 || balances[i - 1] <= high)).length;
          expect(fired.filter((f) => f.kind === "below")).toHaveLength(below);
          expect(fired.filter((f) => f.kind === "above")).toHaveLength(above);
        },
      ),
    );
  });
});
