// The dashboard benchmark reads each program's CPU time from the process group of the start
// script's child that runs it, found by its command line. When npm start changed how it runs the
// dashboard (scripts/dashboard-server.js instead of `next start`), the benchmark's pattern stopped
// matching and its CPU figures came out NaN: this holds the patterns to the start script's launches
// (the bank's, since it runs a bundle, as scripts/bank-build.ts names it).
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { bankBundleArgs } from "../../scripts/bank-build.ts";

const start = fs.readFileSync("scripts/start.ts", "utf8");
const bench = fs.readFileSync("bench/dashboard.bench.ts", "utf8");

/** The command line npm start gives a program: node, then the arguments it launches it with. */
function launchedCommandLine(program: string): string {
  const m = new RegExp(`launch\\("${program}", (?:\\[([^\\]]*)\\]|(bankArgs))`).exec(start);
  if (!m) throw new Error(`scripts/start.ts launches no ${program}`);
  // The bank runs its bundle (scripts/bank-build.ts); the others, the arguments written out.
  if (m[2] && !/const bankArgs = await bankNodeArgs\(root\)/.test(start))
    throw new Error("scripts/start.ts launches the bank with arguments not from bankNodeArgs");
  const args = m[2] ? bankBundleArgs(process.cwd()) : [...m[1].matchAll(/"([^"]*)"/g)].map((a) => a[1]);
  return [process.execPath, ...args].join("\0");
}

/** The pattern the benchmark finds a program's process by. */
function benchPattern(program: string): RegExp {
  const m = new RegExp(`groupOf\\("${program}", /((?:[^/\\\\]|\\\\.)+)/\\)`).exec(bench);
  if (!m) throw new Error(`bench/dashboard.bench.ts looks for no ${program}`);
  return new RegExp(m[1]);
}

describe("the dashboard benchmark's CPU readings", () => {
  it.each(["dashboard", "bank"])("find the %s's process as npm start launches it", (program) => {
    expect(benchPattern(program).test(launchedCommandLine(program))).toBe(true);
  });
});
