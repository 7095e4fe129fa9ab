// The shape every benchmark writes (docs/decisions.md, "Benchmarks"): one JSON file per area under
// bench/results/, with the machine it ran on, so runs can be compared.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  better: "higher" | "lower";
  target?: number;
  note?: string;
}

/**
 * How fast this machine's cores are today: the best of five runs of a fixed piece of JavaScript
 * (integer hashing and a JSON round trip, about 50 ms). Machines of the same model differ by
 * two or three times from one day to the next (the host's other tenants), so a figure is compared
 * with another file's only beside this one; within one run, ratios need no correction.
 */
function calibrationMs(): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    const t = performance.now();
    let h = 0x811c9dc5;
    for (let i = 0; i < 5_000_000; i++) h = Math.imul(h ^ (i & 0xff), 0x01000193) >>> 0;
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ i, label: `row ${i}`, h }));
    if (JSON.parse(JSON.stringify(rows)).length !== rows.length) throw new Error("calibration");
    best = Math.min(best, performance.now() - t);
  }
  return Math.round(best * 10) / 10;
}

/** The first line of /proc/stat: CPU time of every kind, in ticks (null where /proc is missing). */
function cpuTicks(): { steal: number; total: number } | null {
  try {
    const fields = fs
      .readFileSync("/proc/stat", "utf8")
      .split("\n")[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return { steal: fields[7] ?? 0, total: fields.slice(0, 8).reduce((a, b) => a + b, 0) };
  } catch {
    return null;
  }
}

const calibration = calibrationMs();

export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    calibrationMs: calibration,
  };
}

/**
 * The load average around a benchmark: the one-minute figure when it started (or when the last
 * figures were saved), which is the machine's other work, and its mean and maximum sampled every
 * 5 s until its figures are saved, which include the benchmark's own load (a saturating benchmark
 * takes both cores). A file that started above 2 per core says so (`loaded: true`): its figures
 * were taken beside other work and say nothing about a target.
 */
const LOADED_PER_CORE = 2;
let loadSamples: number[] = [];
let ticksAtStart = cpuTicks();
const sampleLoad = () => loadSamples.push(os.loadavg()[0]);
sampleLoad();
setInterval(sampleLoad, 5000).unref();

export function loadDuringRun() {
  sampleLoad();
  const cores = os.cpus().length;
  const atStart = loadSamples[0];
  const ticks = cpuTicks();
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    loadAverage1m: {
      atStart: round(atStart),
      mean: round(loadSamples.reduce((a, b) => a + b, 0) / loadSamples.length),
      max: round(Math.max(...loadSamples)),
      samples: loadSamples.length,
    },
    loaded: atStart > LOADED_PER_CORE * cores,
    // The share of CPU time the host gave to other machines while this one wanted it.
    stealPercent:
      ticks && ticksAtStart && ticks.total > ticksAtStart.total
        ? round((100 * (ticks.steal - ticksAtStart.steal)) / (ticks.total - ticksAtStart.total))
        : null,
  };
}

// BENCH_RESULTS_DIR: somewhere else than bench/results (the smoke test's figures are not results).
const resultsFile = (area: string) =>
  path.join(
    process.env.BENCH_RESULTS_DIR || path.join(path.dirname(new URL(import.meta.url).pathname), "results"),
    `${area}.json`,
  );

function save(file: string, results: BenchResult[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const load = loadDuringRun();
  loadSamples = [];
  ticksAtStart = cpuTicks();
  fs.writeFileSync(
    file,
    `${JSON.stringify({ at: new Date().toISOString(), machine: { ...machine(), ...load }, results }, null, 2)}\n`,
  );
  if (load.loaded)
    console.warn(
      `${path.basename(file)}: started at a load average of ${load.loadAverage1m.atStart} on ${os.cpus().length} cores (above ${LOADED_PER_CORE} per core): marked "loaded"; do not compare these figures with a target`,
    );
}

function report(area: string, results: BenchResult[]): void {
  for (const r of results) {
    const mark =
      r.target === undefined
        ? ""
        : (r.better === "higher" ? r.value >= r.target : r.value <= r.target)
          ? " (meets target)"
          : " (misses target)";
    console.log(
      `${area}: ${r.name} = ${r.value} ${r.unit}${r.target !== undefined ? `, target ${r.target}` : ""}${mark}`,
    );
  }
}

export function writeResults(area: string, results: BenchResult[]): string {
  const file = resultsFile(area);
  save(file, results);
  report(area, results);
  return file;
}

/**
 * For an area several benchmarks write (ui.json): replaces the entries this benchmark owns (by
 * default, those of the same names) and keeps everyone else's.
 */
export function mergeResults(
  area: string,
  results: BenchResult[],
  owns: (name: string) => boolean = (name) => results.some((r) => r.name === name),
): string {
  const file = resultsFile(area);
  let kept: BenchResult[] = [];
  try {
    const old = JSON.parse(fs.readFileSync(file, "utf8")) as { results?: BenchResult[] };
    kept = (old.results ?? []).filter((r) => !owns(r.name));
  } catch {}
  save(file, [...kept, ...results]);
  report(area, results);
  return file;
}

/** Percentile of a list of numbers (nearest-rank). */
export function percentile(values: number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i] * 100) / 100;
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

// CPU time from /proc: unlike wall-clock figures, it barely moves when other work shares the
// machine. Each reader returns NaN where /proc is missing.

interface ProcStat {
  pid: number;
  ppid: number;
  pgrp: number;
  /** User + system CPU seconds so far. */
  cpu: number;
}

function procStat(pid: number | string): ProcStat | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // After "(command) ": state, ppid, pgrp, ..., utime and stime at 11 and 12.
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return {
      pid: Number(pid),
      ppid: Number(f[1]),
      pgrp: Number(f[2]),
      cpu: (Number(f[11]) + Number(f[12])) / 100,
    };
  } catch {
    return null;
  }
}

function allProcesses(): string[] | null {
  try {
    return fs.readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return null;
  }
}

function read(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** CPU seconds a process has used so far. */
export function processCpuSeconds(pid: number): number {
  return procStat(pid)?.cpu ?? Number.NaN;
}

/**
 * CPU seconds a process has used so far, split between its main thread (where JavaScript runs)
 * and its other threads (V8's compiler and garbage-collector helpers, libuv's thread pool).
 */
export function threadCpuSeconds(pid: number): { main: number; others: number } {
  let tids: string[] = [];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return { main: Number.NaN, others: Number.NaN };
  }
  let main = 0;
  let others = 0;
  for (const tid of tids) {
    const cpu = procStat(`${pid}/task/${tid}`)?.cpu ?? 0;
    if (tid === String(pid)) main += cpu;
    else others += cpu;
  }
  return { main, others };
}

/** CPU seconds used so far by every process of one command name (e.g. all of a PostgreSQL server's). */
export function commandCpuSeconds(command: string): number {
  const pids = allProcesses();
  if (!pids) return Number.NaN;
  let total = 0;
  for (const p of pids) if (read(`/proc/${p}/comm`).trim() === command) total += procStat(p)?.cpu ?? 0;
  return total;
}

/** CPU seconds used so far by every process of a process group. */
export function groupCpuSeconds(pgid: number): number {
  const pids = allProcesses();
  if (!pids) return Number.NaN;
  let total = 0;
  for (const p of pids) {
    const st = procStat(p);
    if (st?.pgrp === pgid) total += st.cpu;
  }
  return total;
}

/** The process group of a child of `parentPid` whose command line matches. */
export function childGroup(parentPid: number, match: RegExp): number | null {
  for (const p of allProcesses() ?? []) {
    const st = procStat(p);
    if (st?.ppid === parentPid && match.test(read(`/proc/${p}/cmdline`))) return st.pgrp;
  }
  return null;
}

/**
 * First-load JavaScript of a page, gzip-compressed, in kB: every script its HTML loads. Scripts
 * marked `nomodule` (Next's legacy polyfills) are left out: a browser that runs modules, as
 * every browser the dashboard supports does, never downloads them.
 */
export async function firstLoadJsKb(base: string, page: string, cookie: string): Promise<number> {
  const html = await (await fetch(`${base}${page}`, { headers: { cookie } })).text();
  const srcs = new Set<string>();
  for (const m of html.matchAll(/<script([^>]*)>/g)) {
    const attrs = m[1];
    const src = /\bsrc="([^"]+\.js[^"]*)"/.exec(attrs)?.[1];
    if (src && !/\bnomodule\b/i.test(attrs)) srcs.add(src);
  }
  let bytes = 0;
  for (const src of srcs) {
    const body = Buffer.from(await (await fetch(new URL(src.replace(/&amp;/g, "&"), base))).arrayBuffer());
    bytes += zlib.gzipSync(body).length;
  }
  return round(bytes / 1024, 1);
}

/** Each page's first-load JavaScript as `first_load_js_gzip_<name>`, measured one page after another, held to 200 kB. */
export async function firstLoadJsResults(
  base: string,
  pages: [name: string, path: string][],
  cookie: string,
): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const [name, page] of pages)
    results.push({
      name: `first_load_js_gzip_${name}`,
      value: await firstLoadJsKb(base, page, cookie),
      unit: "kB",
      better: "lower",
      target: 200,
    });
  return results;
}
