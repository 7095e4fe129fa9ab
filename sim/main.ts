// `npm run sim -- --ops 10000 --seed N [--days N] [--instances 2] [--backend pg|pglite] [--no-shrink]
//   [--known-open a,b] [--print-schedule] [--keep] [--scene claim-overlap]`
// Prints the schedule's hash (the same seed gives the same hash everywhere), runs it against a
// freshly started product, checks every invariant and, on a failure, prints the seed and the
// shortest prefix of the schedule that still fails.
import { ROOT } from "./cluster.ts";
import { runSchedule, scheduleFor, shrink } from "./run.ts";
import { SCENES } from "./schedule.ts";

process.chdir(ROOT);
// A build of its own: a long run must not meet a `next build` of `.next` by the tests or `npm start`
// (a dashboard restarted mid-run would start on a half-written build and fail).
process.env.NEXT_DIST_DIR ||= ".next-sim";
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const value = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};

const seed = Number(value("seed", String(Date.now() % 1_000_000)));
const ops = Number(value("ops", "1000"));
const backend = value("backend", "pg") as "pg" | "pglite";
const instances = backend === "pglite" ? 1 : Number(value("instances", "2"));
const knownOpen = value("known-open", "").split(",").filter(Boolean);
const days = Number(value("days", "0"));
const scene = value("scene", "") || undefined;
if (
  (scene !== undefined && !(SCENES as readonly string[]).includes(scene)) ||
  !Number.isInteger(seed) ||
  !Number.isInteger(ops) ||
  ops < 1 ||
  !Number.isInteger(days) ||
  days < 0 ||
  !["pg", "pglite"].includes(backend)
) {
  console.error(
    `usage: npm run sim -- --ops N --seed N [--days N] [--instances 2] [--backend pg|pglite] [--scene ${SCENES.join("|")}]`,
  );
  process.exit(2);
}
const adminUrl =
  process.env.SIM_DATABASE_URL ||
  process.env.TEST_DATABASE_URL ||
  "postgres://postgres@127.0.0.1:5432/postgres";

const opts = {
  seed,
  ops,
  instances,
  backend,
  adminUrl,
  knownOpen,
  days,
  ...(scene ? { scene: scene as (typeof SCENES)[number] } : {}),
  keep: flag("keep"),
  historyFile: value("history", "") || undefined,
  log: (s: string) => console.log(s),
};
const schedule = scheduleFor(opts);
console.log(
  `seed ${seed}: ${schedule.ops.length} operations${days ? ` (${days} business days)` : ""}, schedule hash ${schedule.hash}`,
);
if (flag("print-schedule")) for (const op of schedule.ops) console.log(JSON.stringify(op));

const result = await runSchedule(opts, schedule.ops);
console.log(
  `\nseed ${seed}, schedule ${result.hash}: ${result.executed} ops, ${result.calls} requests, ${result.kills} kill(s) survived, ${result.seconds} s`,
);
if (flag("answers"))
  for (const [k, v] of Object.entries(result.answers).sort()) console.log(`  ${String(v).padStart(5)}  ${k}`);
const byInvariant = new Map<string, typeof result.violations>();
for (const v of [...result.violations, ...result.knownOpen])
  byInvariant.set(v.invariant, [...(byInvariant.get(v.invariant) ?? []), v]);
for (const [inv, vs] of byInvariant) {
  const open = knownOpen.includes(inv) ? " (known open: reported only)" : "";
  console.log(`\n✗ ${inv}${open}: ${vs.length} finding(s), first at op ${result.firstFound[inv]}`);
  for (const v of vs.slice(0, 5))
    console.log(`    op ${v.op}${v.cause !== undefined ? ` (caused by op ${v.cause})` : ""}: ${v.message}`);
}
if (!result.violations.length) {
  console.log(
    result.knownOpen.length ? "\nno violations outside the known-open invariants" : "\nno violations",
  );
  process.exit(0);
}
if (!flag("no-shrink")) {
  const first = result.violations.reduce((a, b) => (b.op < a.op ? b : a));
  console.log(`\nshrinking: the shortest prefix of seed ${seed} that still breaks ${first.invariant}…`);
  const s = await shrink(opts, schedule.ops, first.invariant, first.op + 2);
  console.log(
    `shortest failing prefix: ${s.length} operations (${s.tries} tries). Replay: npm run sim -- --seed ${seed} --ops ${s.length}${days ? ` --days ${days}` : ""} --instances ${instances} --backend ${backend}`,
  );
}
process.exit(1);
