// CPU time of every process on the machine, read from /proc, for a benchmark to show what else ran
// while it measured: `const before = processCpu(); ...; printCpuSince(before, wallMs)`.
import fs from "node:fs";
import os from "node:os";

const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux.

interface Sample {
  /** pid to [label, cpu ms]. */
  byPid: Map<number, [string, number]>;
}

/** A short name for a process: Chromium's process type, the Node script, or the command. */
function label(pid: number, comm: string): string {
  let cmd = "";
  try {
    cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return comm;
  }
  const type = cmd.match(/--type=([\w-]+)/)?.[1];
  if (/chrom/i.test(comm) || /chromium/.test(cmd)) {
    const sub = cmd.match(/--utility-sub-type=([\w.]+)/)?.[1];
    return `chromium ${type ?? "browser"}${sub ? ` (${sub.split(".").pop()})` : ""}`;
  }
  if (comm.startsWith("node") || comm.startsWith("next") || comm === "MainThread") {
    const script = cmd.match(/(bank\/\S+|scripts\/\S+|next-server|next\S*|bench\/\S+|vitest\S*)/)?.[1];
    return `node ${script ?? comm}`;
  }
  return comm;
}

export function processCpu(): Sample {
  const byPid = new Map<number, [string, number]>();
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const f = stat.slice(close + 2).split(" ");
      // Fields after the command: utime and stime are the 12th and 13th.
      const ms = (Number(f[11]) + Number(f[12])) * TICK_MS;
      byPid.set(Number(d), [label(Number(d), comm), ms]);
    } catch {
      // The process ended while it was read.
    }
  }
  return { byPid };
}

/**
 * Prints the CPU each kind of process used since `before`, largest first, over wallMs; returns
 * the share of the machine's cores they used together (0 to 1).
 */
export function printCpuSince(before: Sample, wallMs: number, what: string): number {
  const after = processCpu();
  const groups = new Map<string, number>();
  for (const [pid, [name, ms]] of after.byPid) {
    const was = before.byPid.get(pid)?.[1] ?? 0;
    if (ms - was > 0) groups.set(name, (groups.get(name) ?? 0) + ms - was);
  }
  const total = [...groups.values()].reduce((a, b) => a + b, 0);
  console.log(
    `CPU during ${what}: ${Math.round(total)} ms of ${os.cpus().length} × ${Math.round(wallMs)} ms wall`,
  );
  for (const [name, ms] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`  ${String(Math.round(ms)).padStart(6)} ms  ${name}`);
  return total / (os.cpus().length * wallMs);
}
