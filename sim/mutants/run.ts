// The simulator's own proof: each mutant puts one known bug back into a copy of the product (the
// working tree's files, in a temporary folder), runs a short seed there, and must be caught by the
// invariant named. `node --import tsx sim/mutants/run.ts [name…]` (RACE_MUTANTS and SCHEDULE_MUTANTS
// only by name);
// exit 1 when any goes unseen.
// A mutant of the bank only reuses the dashboard's build (it has no source of the dashboard's to
// change); the dashboard's mutants switched by name (mutants.ts) share one copy, built once; any
// other mutant of the dashboard builds the dashboard in a copy of its own (minutes each).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureBuild, ROOT } from "../cluster.ts";
import { MUTANTS, type Mutant, RACE_MUTANTS, SCHEDULE_MUTANTS } from "./mutants.ts";

/** The dashboard's build the copies start from: `.next` in the test suite (as the short seed), `.next-sim` from the command line. */
const dist = () => process.env.NEXT_DIST_DIR || ".next";

/** Where a switched mutant's edits read whether the bug is on (see mutants.ts). */
const ON = "MUTANT_ON";

/** A dashboard mutant whose bug is switched by its name: it can share one build with the others. */
export const isSwitched = (m: Mutant) => m.program === "dashboard" && m.edits.some((e) => e.to.includes(ON));

/** A copy of the working tree, node_modules hard-linked (builds, data and ignored files left out). */
function copyOfTree(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `treasury-mutant-${label}-`));
  // The files git knows or would know (ignored ones, builds and data, left out).
  execFileSync("sh", [
    "-c",
    `cd "${ROOT}" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -c | tar -x -C "${dir}"`,
  ]);
  execFileSync("cp", ["-al", path.join(ROOT, "node_modules"), path.join(dir, "node_modules")]);
  return dir;
}

/** Puts the mutant's edits into the copy, its switch reading `on` (an expression). */
function applyEdits(dir: string, m: Mutant, on: string): void {
  for (const e of m.edits) {
    const file = path.join(dir, e.file);
    const text = fs.readFileSync(file, "utf8");
    if (!text.includes(e.from))
      throw new Error(`mutant ${m.name}: ${e.file} no longer holds ${JSON.stringify(e.from)}`);
    fs.writeFileSync(file, text.replace(e.from, e.to.replaceAll(ON, on)));
  }
}

/** A copy of the working tree with the mutant's edits; node_modules and (for a bank mutant) the build hard-linked. */
function mutatedCopy(m: Mutant): string {
  const dir = copyOfTree(m.name);
  applyEdits(dir, m, "true");
  // tar keeps each file's time: a build newer than the sources is current in the copy too.
  if (m.program === "bank") execFileSync("cp", ["-al", path.join(ROOT, dist()), path.join(dir, dist())]);
  return dir;
}

/** Runs the mutant's seed in its copy: the simulator's output and exit code. */
function runSeed(
  m: Mutant,
  dir: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "sim/main.ts",
        "--seed",
        String(m.seed),
        "--ops",
        String(m.ops),
        "--no-shrink",
        "--answers",
        ...(m.days ? ["--days", String(m.days)] : []),
        ...(m.scene ? ["--scene", m.scene] : []),
      ],
      {
        cwd: dir,
        env: {
          ...process.env,
          NEXT_DIST_DIR: dist(),
          ...(m.settleSeconds ? { SIM_RUNS_SETTLE_SECONDS: String(m.settleSeconds) } : {}),
          ...env,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (b) => (out += b));
    child.stderr.on("data", (b) => (out += b));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

export interface MutantResult {
  name: string;
  caught: boolean;
  /** The simulator's line naming the invariant, or the tail of its output when it was not caught. */
  evidence: string;
  seconds: number;
}

function judge(m: Mutant, started: number, code: number | null, out: string): MutantResult {
  const line = out.split("\n").find((l) => l.includes(m.caughtBy));
  return {
    name: m.name,
    caught: code === 1 && !!line,
    evidence: line ?? out.slice(-2000),
    seconds: Math.round((Date.now() - started) / 1000),
  };
}

/** Puts one mutant back into a copy of its own and runs its seed there. */
export async function runMutant(m: Mutant): Promise<MutantResult> {
  const started = Date.now();
  if (m.program === "bank") await ensureBuild(() => {});
  const dir = mutatedCopy(m);
  try {
    const { code, out } = await runSeed(m, dir);
    return judge(m, started, code, out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs mutants one after another: the switched ones in one shared copy holding them all, built
 * once (by the first seed run in it), each seed run with its own name switched on; the others each
 * in a copy of its own. `close` removes the shared copy.
 */
export function mutantRunner(all: readonly Mutant[]): {
  run(m: Mutant): Promise<MutantResult>;
  close(): void;
} {
  const shared = all.filter(isSwitched);
  let dir: string | null = null;
  return {
    async run(m) {
      if (!shared.includes(m)) return runMutant(m);
      const started = Date.now();
      if (!dir) {
        const made = copyOfTree("switched");
        for (const s of shared) applyEdits(made, s, `(process.env.SIM_MUTANT === ${JSON.stringify(s.name)})`);
        dir = made;
      }
      const { code, out } = await runSeed(m, dir, { SIM_MUTANT: m.name });
      return judge(m, started, code, out);
    },
    close() {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      dir = null;
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.NEXT_DIST_DIR ||= ".next-sim";
  const names = process.argv.slice(2);
  // Every mutant named, or those of `npm test` (the schedule mutants only by name: they are long).
  const chosen = names.length
    ? [...MUTANTS, ...RACE_MUTANTS, ...SCHEDULE_MUTANTS].filter((m) => names.includes(m.name))
    : MUTANTS;
  let missed = 0;
  const runner = mutantRunner(chosen);
  try {
    for (const m of chosen) {
      const r = await runner.run(m);
      console.log(`${r.caught ? "caught" : "MISSED"} ${r.name} (${r.seconds} s): ${r.evidence.trim()}`);
      if (!r.caught) console.log(r.evidence);
      if (!r.caught) missed++;
    }
  } finally {
    runner.close();
  }
  process.exit(missed ? 1 : 0);
}
