// Known bugs, each as the edit that puts it back into the product, the short seed that shows it
// and the invariant that must catch it (sim/mutants/run.ts runs them).

export interface Mutant {
  name: string;
  /** What the bug does, in a line. */
  what: string;
  /** Which program the edits touch: a dashboard mutant needs a build of its own. */
  program: "bank" | "dashboard";
  edits: { file: string; from: string; to: string }[];
  seed: number;
  ops: number;
  caughtBy: string;
}

export const MUTANTS: Mutant[] = [
  {
    name: "overdraw",
    what: "a SEN transfer may take more than the account's available balance (check and constraint gone)",
    program: "bank",
    edits: [
      {
        file: "bank/db/functions/ledger.sql",
        from: "ELSIF f.available_cents < p_cents THEN v_code := 'insufficient_funds';",
        to: "ELSIF f.available_cents < 0 THEN v_code := 'insufficient_funds';",
      },
      {
        file: "bank/db/migrations/0000_init.sql",
        from: 'CHECK ("accounts"."available_cents" >= 0)',
        to: "CHECK (true)",
      },
    ],
    seed: 3,
    ops: 20,
    caughtBy: "money.non-negative",
  },
];
