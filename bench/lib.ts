// The shape every benchmark writes (DESIGN.md, Benchmarks): one JSON file per area under
// bench/results/, with the machine it ran on, so runs can be compared.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  better: "higher" | "lower";
  target?: number;
  note?: string;
}

export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

export function writeResults(area: string, results: BenchResult[]): string {
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), "results");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${area}.json`);
  fs.writeFileSync(
    file,
    `${JSON.stringify({ at: new Date().toISOString(), machine: machine(), results }, null, 2)}\n`,
  );
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

/** CPU seconds (user + system) a process has used so far, from /proc; NaN where /proc is missing. */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds used so far by every process of one command name (e.g. all of a PostgreSQL server's). */
export function commandCpuSeconds(command: string): number {
  let total = 0;
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return Number.NaN;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (fs.readFileSync(`/proc/${e}/comm`, "utf8").trim() === command)
        total += processCpuSeconds(Number(e));
    } catch {}
  }
  return total;
}
