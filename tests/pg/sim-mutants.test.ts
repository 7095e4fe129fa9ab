// The simulator's own proof, in the test suite: each known bug put back (sim/mutants/mutants.ts)
// into a copy of the product is caught by its invariant within its short seed. The dashboard's
// mutants switched by name share one copy and one build. A seed fixes the schedule, not the
// interleaving of real concurrent requests: a mutant the first run's interleaving hides (seen once
// in three full runs, alerts-by-arrival) gets one more fresh run of the same seed.
import { afterAll, describe, expect, it } from "vitest";
import { MUTANTS } from "../../sim/mutants/mutants.ts";
import { mutantRunner } from "../../sim/mutants/run.ts";
import { PG_URL } from "../helpers/databases.ts";

describe.skipIf(!PG_URL)("the simulator catches each known bug put back", () => {
  const runner = mutantRunner(MUTANTS);
  afterAll(() => runner.close());

  for (const m of MUTANTS)
    it(`catches ${m.name} (${m.what}) by ${m.caughtBy} within seed ${m.seed}, ${m.ops} operations`, async () => {
      const first = await runner.run(m);
      const r = first.caught ? first : await runner.run(m);
      expect(r.caught, `${first.evidence}\n--- and a second run:\n${r.evidence}`).toBe(true);
    }, 1_200_000);
});
