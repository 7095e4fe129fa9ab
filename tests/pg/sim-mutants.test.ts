// The simulator's own proof, in the test suite: each known bug put back (sim/mutants/mutants.ts)
// into a copy of the product is caught by its invariant within its short seed.
import { describe, expect, it } from "vitest";
import { MUTANTS } from "../../sim/mutants/mutants.ts";
import { runMutant } from "../../sim/mutants/run.ts";
import { PG_URL } from "../helpers/databases.ts";

describe.skipIf(!PG_URL)("the simulator catches each known bug put back", () => {
  for (const m of MUTANTS)
    it(`catches ${m.name} (${m.what}) by ${m.caughtBy} within seed ${m.seed}, ${m.ops} operations`, async () => {
      const r = await runMutant(m);
      expect(r.caught, r.evidence).toBe(true);
    }, 1_200_000);
});
