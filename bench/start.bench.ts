// How long a newcomer waits: a fresh clone of the committed tree, `npm ci`, then `npm start`
// until the dashboard answers (first start: build, bank seeding, demo users), and `npm start`
// again on the same folder (a later start: nothing to build). Targets: first start under 60 s,
// later starts under 10 s, on this machine.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../tests/helpers/ports.ts";
import { type BenchResult, round, writeResults } from "./lib.ts";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

/** Runs `npm start` in `dir` until "Dashboard ready", then stops its process group; seconds taken. */
async function timedStart(dir: string, dataDir: string): Promise<{ seconds: number; output: string }> {
  const [port, bankPort] = [await freePort(), await freePort()];
  const started = performance.now();
  const child: ChildProcess = spawn("npm", ["start"], {
    cwd: dir,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), BANK_PORT: String(bankPort) },
  });
  let output = "";
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`npm start was not ready in 15 minutes:\n${output}`)),
        900_000,
      );
      const onData = (b: Buffer) => {
        output += b.toString();
        if (/Dashboard ready: http/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited with ${code}:\n${output}`));
      });
    });
    return { seconds: (performance.now() - started) / 1000, output };
  } finally {
    const pgid = child.pid as number;
    try {
      process.kill(-pgid, "SIGTERM");
    } catch {}
    const deadline = Date.now() + 20_000;
    const alive = () => {
      try {
        process.kill(-pgid, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {}
  }
}

export async function run(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "treasury-fresh-clone-"));
  const clone = path.join(work, "treasury");
  const dataDir = path.join(work, "data");
  try {
    execFileSync("git", ["clone", "--quiet", "--no-hardlinks", root, clone]);
    const ci0 = performance.now();
    execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: clone, stdio: "ignore" });
    const ciSeconds = (performance.now() - ci0) / 1000;
    const first = await timedStart(clone, dataDir);
    if (!/\[build\] still building|Built the dashboard/.test(first.output))
      throw new Error(`the first start showed no build progress:\n${first.output}`);
    const later = await timedStart(clone, dataDir);
    const load = os.loadavg()[0].toFixed(1);
    const results: BenchResult[] = [
      {
        name: "first_start_fresh_clone",
        value: round(first.seconds, 1),
        unit: "s",
        better: "lower",
        target: 60,
        note: `npm start on a fresh clone after npm ci, until the dashboard answers (build, bank seeding, demo users); load average ${load}`,
      },
      {
        name: "later_start",
        value: round(later.seconds, 1),
        unit: "s",
        better: "lower",
        target: 10,
        note: "npm start again on the same folder: nothing to build",
      },
      {
        name: "npm_ci_fresh_clone",
        value: round(ciSeconds, 1),
        unit: "s",
        better: "lower",
        note: "npm ci with the machine's npm cache, before the first start",
      },
    ];
    writeResults("start", results);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
