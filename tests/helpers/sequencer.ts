// The order files start in: vitest's own (by the last run's durations, or by size on a fresh clone
// where there is none), with the files known to take longest moved to the front of their suite.
// On a fresh clone the walks through every page are among the smallest files and would otherwise
// start last, leaving one worker busy for minutes after the others finish.
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The longest files of each suite, longest first (per-file times of a full run, 2026-11-29). */
export const LONGEST_FIRST = [
  "tests/e2e/roles-approver-admin.test.ts",
  "tests/e2e/newcomer.test.ts",
  "tests/e2e/roles-viewer-preparer.test.ts",
  "tests/e2e/approvals-inbox.test.ts",
  "tests/e2e/send-money.test.ts",
  "tests/integration/forwarded-headers.test.ts",
  "tests/integration/dashboard-operations.test.ts",
  "tests/integration/dashboard-secrets.test.ts",
  "tests/integration/fuzz.test.ts",
  "tests/integration/webhooks-fault.test.ts",
  "tests/integration/bank-operations.test.ts",
  "tests/integration/dashboard-auth.test.ts",
];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(path.relative(this.ctx.config.root, f.moduleId));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    // Each suite keeps its place (projects run in their groups' order); within one, by rank.
    const suites = new Map<string, TestSpecification[]>();
    for (const f of sorted) {
      const key = `${f.project.config.sequence.groupOrder}:${f.project.name}`;
      suites.set(key, [...(suites.get(key) ?? []), f]);
    }
    return [...suites.values()].flatMap((suite) =>
      suite
        .map((f, i) => ({ f, i }))
        .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
        .map(({ f }) => f),
    );
  }
}
