// The crossing rule of balance alerts: each notification carries the balance before and after one
// change, and a line fires on the notification that takes the balance from its safe side to the
// other, so that for any run of balances, whatever order its notifications arrive in, each line
// fires exactly once per crossing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crossings, type RuleLines } from "../../lib/alerts/evaluate.ts";

/** The bank's notifications of a run of balances: each change, its previous and new balance. */
const notificationsOf = (start: number, balances: number[]) =>
  balances.map((b, i) => ({ id: `msg_${i}`, previous: i === 0 ? start : balances[i - 1], available: b }));

/** Crossings in the bank's order, counted on the run itself. */
function expected(rule: RuleLines, start: number, balances: number[]) {
  const run = [start, ...balances];
  let below = 0;
  let above = 0;
  for (let i = 1; i < run.length; i++) {
    if (rule.belowCents !== null && run[i - 1] >= rule.belowCents && run[i] < rule.belowCents) below++;
    if (rule.aboveCents !== null && run[i - 1] <= rule.aboveCents && run[i] > rule.aboveCents) above++;
  }
  return { below, above };
}

describe("balance alert crossings", () => {
  it("fires below once per fall under the line, judged on each notification's own two balances", () => {
    const rule = { belowCents: 50_000, aboveCents: null };
    expect(crossings(rule, 60_000, 40_000)).toEqual([{ kind: "below", thresholdCents: 50_000 }]);
    expect(crossings(rule, 40_000, 30_000)).toEqual([]);
    expect(crossings(rule, 50_000, 49_999)).toEqual([{ kind: "below", thresholdCents: 50_000 }]);
    expect(crossings(rule, 49_999, 80_000)).toEqual([]);
  });

  it("fires above once per rise over the line", () => {
    const rule = { belowCents: null, aboveCents: 100_000 };
    expect(crossings(rule, 100_000, 100_001)).toEqual([{ kind: "above", thresholdCents: 100_000 }]);
    expect(crossings(rule, 100_001, 200_000)).toEqual([]);
    expect(crossings(rule, 200_000, 100_000)).toEqual([]);
  });

  it("fires each crossing of a run exactly once whatever order, and however often, its notifications arrive", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: -2_000_000, max: 2_000_000 }),
        fc.array(fc.integer({ min: -2_000_000, max: 2_000_000 }), { maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.infiniteStream(fc.nat()),
        (low, gap, start, balances, repeats, order) => {
          const rule = { belowCents: low, aboveCents: low + gap };
          const sent = notificationsOf(start, balances);
          // Repeats of some notifications (retries, two instances), then any order at all.
          const arriving = [
            ...sent,
            ...repeats.filter(() => sent.length > 0).map((r) => sent[r % sent.length]),
          ];
          const it = order[Symbol.iterator]();
          for (let i = arriving.length - 1; i > 0; i--) {
            const j = (it.next().value as number) % (i + 1);
            [arriving[i], arriving[j]] = [arriving[j], arriving[i]];
          }
          // A notification is stored once per webhook-id: a repeat is not evaluated again.
          const seen = new Set<string>();
          const fired: string[] = [];
          for (const n of arriving) {
            if (seen.has(n.id)) continue;
            seen.add(n.id);
            for (const c of crossings(rule, n.previous, n.available)) fired.push(c.kind);
          }
          const want = expected(rule, start, balances);
          expect(fired.filter((k) => k === "below")).toHaveLength(want.below);
          expect(fired.filter((k) => k === "above")).toHaveLength(want.above);
        },
      ),
    );
  });
});
