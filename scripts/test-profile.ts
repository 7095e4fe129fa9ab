// `npm run test:profile [-- vitest args]`: runs `npm test` (or, with arguments, `npm test -- <args>`)
// and says where its time and CPU go: per phase (build, type check, lint, each vitest command) and
// per test file, with everything a file starts (banks, dashboards, Chromium) charged to it. Reads
// /proc once a second (Linux only); a process's CPU after its last reading is charged when its
// parent reaps it. Writes the figures to test-results/profile.json and prints the tables.
// A process's `charged` counts its reaped descendants too, so a grandchild's time is subtracted
// once from its grandparent's reaped time (without that, a whole run charged 7,832 CPU-s against
// 2,644 for the tree on 29 Nov). A phase's wall time spans its first to its last process seen.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const HZ = 100; // USER_HZ: /proc's clock ticks per second on Linux
const SAMPLE_MS = Number(process.env.TEST_PROFILE_SAMPLE_MS || 1000);
const log = path.join(os.tmpdir(), `test-profile-${process.pid}.jsonl`);
fs.writeFileSync(log, "");

type Proc = { pid: number; ppid: number; start: string; own: number; reaped: number; cmd: string };

function readProcs(): Map<number, Proc> {
  const procs = new Map<number, Proc>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      // The command name may hold spaces and parentheses: the fields start after the last ")".
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      procs.set(Number(name), {
        pid: Number(name),
        ppid: Number(f[1]),
        own: Number(f[11]) + Number(f[12]),
        reaped: Number(f[13]) + Number(f[14]),
        start: f[19],
        cmd: "",
      });
    } catch {
      // gone between the listing and the read
    }
  }
  return procs;
}

function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** Which test file a worker process ran when: from tests/helpers/profile-file.ts's log. */
function fileRuns(): Map<number, { file: string; start: number; end?: number }[]> {
  const runs = new Map<number, { file: string; start: number; end?: number }[]>();
  for (const line of fs.readFileSync(log, "utf8").split("\n")) {
    if (!line) continue;
    const e = JSON.parse(line) as { event: string; pid: number; file: string; at: number };
    const list = runs.get(e.pid) ?? [];
    if (e.event === "start") list.push({ file: e.file, start: e.at });
    else {
      const run = list.findLast((r) => r.file === e.file);
      if (run) run.end = e.at;
    }
    runs.set(e.pid, list);
  }
  return runs;
}

/** The phase a process belongs to, from its own command line or its nearest labelled ancestor's. */
function phaseOf(cmd: string): string | null {
  if (cmd.includes("--build-only")) return "build (dashboard)";
  if (/\btsc\b/.test(cmd)) return "typecheck";
  if (/\bbiome\b/.test(cmd)) return "lint";
  const v = cmd.match(/vitest(?:\.mjs)? run(.*)$/);
  if (v) return `vitest${v[1].replace(/--project /g, "").replace(/\s+/g, " ")}`.trim();
  return null;
}

const known = new Map<string, Proc & { bucket: string; charged: number }>(); // by pid:start
const cpu = new Map<string, number>(); // bucket → ticks
const charge = (bucket: string, ticks: number) => cpu.set(bucket, (cpu.get(bucket) ?? 0) + ticks);
const phaseWall = new Map<string, { first: number; last: number }>();
let runs = new Map<number, { file: string; start: number; end?: number }[]>();
let liveBefore = new Set<string>();

function bucketOf(pid: number, procs: Map<number, Proc>, rootPid: number, now: number): string {
  let p = procs.get(pid);
  let phase: string | null = null;
  while (p && p.pid !== rootPid) {
    const list = runs.get(p.pid);
    if (list?.length) {
      const run = list.findLast((r) => r.start <= now) ?? list[0];
      return `file ${run.file}`;
    }
    if (!phase) {
      const k = known.get(`${p.pid}:${p.start}`);
      phase = phaseOf(k?.cmd || cmdline(p.pid));
    }
    p = procs.get(p.ppid);
  }
  return phase ?? (p ? "npm test (other)" : "outside");
}

const args = process.argv.slice(2);
const started = Date.now();
const load0 = os.loadavg();
const sys = () => {
  const [, ...t] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
  return { busy: t[0] + t[1] + t[2] + t[5] + t[6] + t[7], all: t.reduce((a, b) => a + b, 0) };
};
const sys0 = sys();
const child = spawn(process.execPath, ["--import", "tsx", "scripts/test.ts", ...args], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, TEST_PROFILE_LOG: log },
});
const rootPid = child.pid as number;

function sample(): void {
  const now = Date.now();
  runs = fileRuns();
  const procs = readProcs();
  // Processes gone since the last reading, by parent: the parent's reaped time now holds their
  // whole use, of which `charged` was already counted.
  const gone = new Map<number, (Proc & { bucket: string; charged: number })[]>();
  for (const key of liveBefore) {
    const k = known.get(key);
    if (!k) continue;
    const p = procs.get(k.pid);
    if (p && p.start === k.start) continue;
    gone.set(k.ppid, [...(gone.get(k.ppid) ?? []), k]);
  }
  const live = new Set<string>();
  for (const p of procs.values()) {
    // Ours: the test run's root or a descendant of it (all born after this script started).
    let a: Proc | undefined = p;
    while (a && a.pid !== rootPid && a.pid > 1) a = procs.get(a.ppid);
    if (!a || a.pid !== rootPid) continue;
    const key = `${p.pid}:${p.start}`;
    live.add(key);
    let k = known.get(key);
    if (!k) {
      k = { ...p, own: 0, reaped: 0, cmd: cmdline(p.pid), bucket: "", charged: 0 };
      known.set(key, k);
    }
    k.bucket = bucketOf(p.pid, procs, rootPid, now);
    const phase = phaseOf(k.cmd);
    if (phase) {
      const w = phaseWall.get(phase) ?? { first: now, last: now };
      w.last = now;
      phaseWall.set(phase, w);
    }
    const dead = gone.get(p.pid) ?? [];
    const ownDelta = p.own - k.own;
    const lost = Math.max(0, p.reaped - k.reaped - dead.reduce((s, c) => s + c.charged, 0));
    charge(k.bucket, ownDelta);
    charge(dead[0]?.bucket ?? k.bucket, lost);
    // Everything charged on behalf of this process and its reaped descendants: what its parent's
    // reaped time will hold when it is reaped in turn.
    k.charged += ownDelta + Math.max(p.reaped - k.reaped, lost);
    k.own = p.own;
    k.reaped = p.reaped;
    k.ppid = p.ppid;
  }
  liveBefore = live;
}

const timer = setInterval(sample, SAMPLE_MS);
sample();
const code: number = await new Promise((resolve) => child.on("exit", (c) => resolve(c ?? 1)));
clearInterval(timer);
runs = fileRuns();

const wall = (Date.now() - started) / 1000;
const sys1 = sys();
const selfStat = fs.readFileSync("/proc/self/stat", "utf8");
const sf = selfStat.slice(selfStat.lastIndexOf(")") + 2).split(" ");
const treeCpu = (Number(sf[13]) + Number(sf[14])) / HZ; // the whole run, reaped
const charged = [...cpu.values()].reduce((a, b) => a + b, 0) / HZ;

const files = new Map<string, { wall: number; cpu: number }>();
for (const list of runs.values())
  for (const r of list) {
    const f = files.get(r.file) ?? { wall: 0, cpu: 0 };
    f.wall += ((r.end ?? r.start) - r.start) / 1000;
    files.set(r.file, f);
  }
for (const [bucket, ticks] of cpu)
  if (bucket.startsWith("file ")) {
    const name = bucket.slice(5);
    const f = files.get(name) ?? { wall: 0, cpu: 0 };
    f.cpu += ticks / HZ;
    files.set(name, f);
  }
const phases = [...phaseWall].map(([phase, w]) => ({
  phase,
  wallS: Math.round((w.last - w.first) / 1000),
  cpuS: Math.round(
    [...cpu]
      .filter(
        ([b]) => b === phase || (phase.startsWith("vitest") && b.startsWith("file ") && inPhase(b, phase)),
      )
      .reduce((a, [, t]) => a + t, 0) / HZ,
  ),
}));
function inPhase(bucket: string, phase: string): boolean {
  const suite = bucket.split("/")[1];
  return phase.split(" ").includes(suite);
}

const result = {
  at: new Date(started).toISOString(),
  exitCode: code,
  cpus: os.cpus().length,
  loadAverageAtStart: load0.map((l) => +l.toFixed(2)),
  loadAverageAtEnd: os.loadavg().map((l) => +l.toFixed(2)),
  wallS: Math.round(wall),
  cpuS: Math.round(treeCpu),
  chargedCpuS: Math.round(charged),
  machineBusyShare: +((sys1.busy - sys0.busy) / (sys1.all - sys0.all)).toFixed(3),
  phases,
  buckets: Object.fromEntries(
    [...cpu].filter(([b]) => !b.startsWith("file ")).map(([b, t]) => [b, Math.round(t / HZ)]),
  ),
  files: [...files]
    .map(([file, f]) => ({ file, wallS: Math.round(f.wall), cpuS: +f.cpu.toFixed(1) }))
    .sort((a, b) => b.cpuS - a.cpuS),
};
fs.mkdirSync(path.join(root, "test-results"), { recursive: true });
fs.writeFileSync(path.join(root, "test-results/profile.json"), `${JSON.stringify(result, null, 2)}\n`);
fs.rmSync(log, { force: true });

console.log(
  `\nnpm test: ${result.wallS} s wall, ${result.cpuS} CPU-s (${result.chargedCpuS} charged below),`,
);
console.log(`load average ${result.loadAverageAtStart.join(" ")} → ${result.loadAverageAtEnd.join(" ")}`);
console.log("phase                                    wall s   CPU s");
for (const p of phases)
  console.log(`${p.phase.padEnd(40)} ${String(p.wallS).padStart(6)} ${String(p.cpuS).padStart(7)}`);
console.log("file                                                   wall s   CPU s");
for (const f of result.files)
  console.log(`${f.file.padEnd(54)} ${String(f.wallS).padStart(6)} ${String(f.cpuS).padStart(7)}`);
process.exit(code);
