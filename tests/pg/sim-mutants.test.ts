// The simulator's own proof, in the test suite: each known bug put back (sim/mutants/mutants.ts)
// into a copy of the product is caught by its invariant within its short seed. The dashboard's
// mutants switched by name share one copy and one build.
import { afterAll, describe, expect, it } from "vitest";
import { MUTANTS } from "../../sim/mutants/mutants.ts";
import { mutantRunner } from "../../sim/mutants/run.ts";
import { PG_URL } from "../helpers/databases.ts";

describe.skipIf(!PG_URL)("the simulator catches each known bug put back", () => {
  const runner = mutantRunner(MUTANTS);
  afterAll(() => runner.close());

  for (const m of MUTANTS)
    it(`catches ${m.name} (${m.what}) by ${m.caughtBy} within seed ${m.seed}, ${m.ops} operations`, async () => {
      const r = await runner.run(m);
      expect(r.caught, r.evidence).toBe(true);
    }, 1_200_000);
});
