// One run of a schedule against a freshly started product, and the search for the shortest
// prefix of a failing schedule that still fails (each try from a fresh start).
import fs from "node:fs";
import { Checker } from "./checker.ts";
import { type Backend, Cluster, ensureBuild } from "./cluster.ts";
import type { Violation } from "./model.ts";
import { makeSchedule, type Op, type Schedule, type ScheduleOptions, scheduleHash } from "./schedule.ts";
import { runOp } from "./workload.ts";
import { World } from "./world.ts";

export interface RunOptions {
  seed: number;
  ops: number;
  instances: number;
  backend: Backend;
  adminUrl?: string;
  /** Operations in flight at once among those that may overlap (deposits, transfers, /v2). */
  window?: number;
  /** Invariants whose fixes have not landed: reported, not counted as failures. */
  knownOpen?: string[];
  log?: (s: string) => void;
  keep?: boolean;
  /** Writes the history (one request a line, JSON) to this file. */
  historyFile?: string;
  /** Business days the bank's clock moves on, with schedules and sweeps as actors (0: none). */
  days?: number;
  /** A fixed scene played first (ScheduleOptions.scene). */
  scene?: ScheduleOptions["scene"];
}

export interface RunResult {
  seed: number;
  hash: string;
  ops: number;
  executed: number;
  kills: number;
  calls: number;
  seconds: number;
  violations: Violation[];
  /** Of the violations, those of invariants listed as known open. */
  knownOpen: Violation[];
  /** First operation at which each invariant was found broken. */
  firstFound: Record<string, number>;
  /** Answers per kind of request: "POST /api/drafts/:id/release 200" → count. */
  answers: Record<string, number>;
}

export function scheduleFor(
  o: Pick<RunOptions, "seed" | "ops" | "instances" | "backend" | "days" | "scene">,
): Schedule {
  return makeSchedule({
    seed: o.seed,
    ops: o.ops,
    instances: o.instances,
    kills: o.backend === "pg",
    days: o.days,
    ...(o.scene ? { scene: o.scene } : {}),
  });
}

export async function runSchedule(o: RunOptions, ops: Op[]): Promise<RunResult> {
  const log = o.log ?? (() => {});
  const started = Date.now();
  await ensureBuild(log);
  const cluster = new Cluster({
    backend: o.backend,
    instances: o.instances,
    adminUrl: o.adminUrl,
    seed: o.seed,
    // The runners of scheduled payments and sweeps every second, when the schedule has them.
    scheduleRunSeconds: ops.some((op) => op.kind === "advance") ? 1 : undefined,
    log,
  });
  const world = new World(cluster, ops);
  const checker = new Checker(world);
  let executed = 0;
  try {
    await cluster.start();
    await world.setup();
    log(
      `product up in ${Math.round((Date.now() - started) / 1000)} s (${o.instances} bank(s), ${o.instances} dashboard(s), ${o.backend})`,
    );
    const window = o.window ?? 3;
    let reported = 0;
    const inflight = new Set<Promise<void>>();
    const guard = (op: Op) =>
      runOp(world, op).catch((e) => log(`op ${op.i} (${op.kind}) threw: ${(e as Error).message}`));
    for (const op of ops) {
      if (op.par) {
        while (inflight.size >= window) await Promise.race(inflight);
        const p: Promise<void> = guard(op).finally(() => inflight.delete(p));
        inflight.add(p);
      } else {
        await Promise.all(inflight);
        await guard(op);
        if (op.kind === "check")
          await checker.during(op.i).catch((e) => log(`check at ${op.i} failed: ${(e as Error).message}`));
      }
      executed++;
      // New findings as they come, so a long run shows them before its end.
      for (; reported < world.violations.length; reported++) {
        const v = world.violations[reported];
        log(`  ✗ op ${v.op}: ${v.invariant}: ${v.message}`);
      }
      if (executed % 100 === 0)
        log(`${executed}/${ops.length} ops, ${world.violations.length} violation(s), ${world.kills} kill(s)`);
    }
    await Promise.all(inflight);
    await quiesce(world);
    world.stopStreams();
    await cluster.stopAndOpenPglite();
    await checker.atEnd(ops.length);
    if (world.series.size || world.sweeps.size) log(await scheduleSummary(world));
  } finally {
    world.stopStreams();
    if (o.historyFile)
      fs.writeFileSync(o.historyFile, world.history.calls.map((c) => JSON.stringify(c)).join("\n") + "\n");
    await cluster.stop({ keep: o.keep });
  }
  const known = new Set(o.knownOpen ?? []);
  const firstFound: Record<string, number> = {};
  for (const v of world.violations)
    firstFound[v.invariant] = Math.min(firstFound[v.invariant] ?? Infinity, v.op);
  return {
    seed: o.seed,
    hash: scheduleHash(ops),
    ops: ops.length,
    executed,
    kills: world.kills,
    calls: world.history.calls.length,
    seconds: Math.round((Date.now() - started) / 1000),
    violations: world.violations.filter((v) => !known.has(v.invariant)),
    knownOpen: world.violations.filter((v) => known.has(v.invariant)),
    firstFound,
    answers: summarize(world),
  };
}

/** Lets the system settle: faults lifted, the wire system up, wires settled, notifications sent. */
async function quiesce(world: World) {
  const c = world.cluster;
  c.receiver.mode = "up";
  for (const path of c.bankPaths) path.mode = "up";
  c.sink.mode = "up";
  const sandbox = (path: string, body: unknown) =>
    fetch(`${c.bankUrl(0)}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-Sandbox-Key": "sbx_simulator_key_0123456789" },
      body: JSON.stringify(body),
    }).catch(() => null);
  await sandbox("/sandbox/wire-system", { status: "up" });
  await sandbox("/sandbox/settle", {});
  await world.waitOutboxDrained(90_000);
  await world.settleSchedules(world.schedule.length);
}

/**
 * The shortest prefix of the schedule that still breaks `invariant`, by bisection over the
 * prefix length (each try a fresh start). Real requests interleave differently on every run, so
 * this is the shortest found, not a proof that no shorter one exists.
 */
export async function shrink(
  o: RunOptions,
  ops: Op[],
  invariant: string,
  upper: number,
): Promise<{ length: number; tries: number }> {
  let lo = 1;
  let hi = Math.min(ops.length, upper);
  let tries = 0;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    tries++;
    const r = await runSchedule({ ...o, knownOpen: [], log: () => {} }, ops.slice(0, mid));
    const fails = r.violations.some((v) => v.invariant === invariant);
    o.log?.(`  prefix ${mid}: ${fails ? "fails" : "passes"}`);
    if (fails) hi = mid;
    else lo = mid + 1;
  }
  return { length: hi, tries };
}

/** What the series and sweeps did over the run, in a line or two (read from the dashboard's database). */
async function scheduleSummary(world: World): Promise<string> {
  const c = world.cluster;
  if (!c.readable) return "";
  const occ = await c.dashQuery<{ status: string; reason: string | null; k: string }>(
    `SELECT s.kind || ' ' || o.status AS status, CASE WHEN o.status = 'failed' THEN left(o.reason, 60) END AS reason, count(*) AS k
     FROM series_occurrences o JOIN payment_series s ON s.id = o.series_id GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  const moves = await c.dashQuery<{ status: string; run: boolean; k: string }>(
    "SELECT status, slot = 'run' AS run, count(*) AS k FROM sweep_moves GROUP BY 1, 2 ORDER BY 1, 2",
  );
  const looks = world.sweepLooks;
  const below = looks.filter((l) => l.keptCents < l.sweep.lowCents).length;
  const waited = Math.max(0, ...looks.map((l) => l.waited));
  return [
    `schedules: ${world.series.size} series (${[...world.series.values()].filter((m) => m.rail === "wire").length} wire) through ${world.bankDate}; edits answered ${world.seriesEdits.amount} amount, ${world.seriesEdits.payee} payee, ${world.seriesEdits.rename} rename; occurrences ${occ.map((o) => `${o.status}${o.reason ? ` (${o.reason})` : ""} ${o.k}`).join(", ") || "none"}; ${[...world.series.values()].reduce((n, m) => n + m.skipped.size, 0)} skipped by a person`,
    `sweeps: moves ${moves.map((m) => `${m.status} ${m.k} (${m.run ? "day's run" : "crossing"})`).join(", ") || "none"}; ${looks.length} looks after a day's runs, ${below} of them below the band with the funding account short; the runs settled within ${waited} s at most`,
  ].join("\n");
}

function summarize(world: World): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of world.history.calls) {
    const path = c.path.replace(/\/[0-9a-f-]{36}|\/[A-Z0-9]{12,20}|\/\d{6,}/g, "/:id");
    const k = `${c.method} ${path} ${c.status}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}
