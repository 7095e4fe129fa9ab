// Starts the bank and the dashboard exactly as `npm start` does, in a fresh data folder on free
// ports, and reads the demo users from its output. The whole process group is stopped at the end
// (killing `npm start` alone would leave next-server running). Browser tests, the secrets scan
// and the dashboard benchmark all start the product this way.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BANK_SCHEMA_SOURCE } from "../../bank/db/client.ts";
import { copyMigratedPglite } from "./pglite-template.ts";
import { freePort } from "./ports.ts";

export interface DemoUser {
  email: string;
  role: string;
  password: string;
}

export interface RunningDashboard {
  url: string;
  users: DemoUser[];
  /** The data folder (bank-demo.json, the databases, the generated secrets). */
  dataDir: string;
  /** The process started: `npm`, or the start script itself with `via: "node"`. */
  pid: number;
  output: () => string;
  /** Stops every process; the data folder goes too unless kept (a later stop removes it). */
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
  /** `npm` runs `npm start`; `node` runs its script directly, so the bank and the dashboard are its children. */
  via?: "npm" | "node";
  /** Writes files into the fresh data folder before the start (a second instance's shared secret). */
  prepare?: (dataDir: string) => void;
  /**
   * Lets `npm start` create its embedded databases itself. By default the data folder starts with
   * the bank's and the dashboard's databases migrated and empty, as a first start leaves them just
   * before it seeds (copies made once, tests/helpers/pglite-template.ts): a browser file is spared
   * two initdb runs. The start test, which is about the first start, creates them.
   */
  fresh?: boolean;
}

const READY = /Dashboard ready: (http:\/\/127\.0\.0\.1:\d+)/;
const DEMO_USER = /demo user: (\S+) role=(\w+) password=(\S+)/g;

export async function startDashboard(opts: StartOptions = {}): Promise<RunningDashboard> {
  const { env = {}, timeoutMs = 600_000, via = "npm", prepare, fresh = false } = opts;
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dashboard-e2e-"));
  if (!fresh && !env.DATA_DIR) {
    if (!env.BANK_DATABASE_URL) await copyMigratedPglite(BANK_SCHEMA_SOURCE, path.join(dataDir, "bank"));
    if (!env.DATABASE_URL)
      await copyMigratedPglite(
        { migrations: path.join(root, "lib/db/migrations") },
        path.join(dataDir, "dashboard"),
      );
  }
  prepare?.(dataDir);
  const [port, bankPort] = [await freePort(), await freePort()];
  const [command, args] =
    via === "npm" ? ["npm", ["start"]] : [process.execPath, ["--import", "tsx", "scripts/start.ts"]];
  const child: ChildProcess = spawn(command, args, {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      BANK_PORT: String(bankPort),
      ...env,
    },
  });
  let output = "";
  child.stdout?.on("data", (b: Buffer) => {
    output += b.toString();
  });
  child.stderr?.on("data", (b: Buffer) => {
    output += b.toString();
  });

  const stop = async (o: { keepData?: boolean } = {}) => {
    const pgid = child.pid;
    if (pgid && groupAlive(pgid)) {
      try {
        process.kill(-pgid, "SIGTERM");
      } catch {}
      // npm start stops the bank and the dashboard (their own process groups) before it exits:
      // wait for the whole group to finish rather than cutting that short.
      const deadline = Date.now() + 20_000;
      while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      try {
        process.kill(-pgid, "SIGKILL");
      } catch {}
    }
    if (!o.keepData) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start was not ready in ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const check = () => {
      const m = READY.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  }).catch(async (e) => {
    await stop();
    throw e;
  });

  const users = [...output.matchAll(DEMO_USER)].map((m) => ({ email: m[1], role: m[2], password: m[3] }));
  return { url, users, dataDir, pid: child.pid as number, output: () => output, stop };
}

/** The pid of `parent`'s child whose command line holds `script` (the start script's bank or dashboard server). */
export function childPid(parent: number, script: string): number | undefined {
  const out = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(parent)], { encoding: "utf8" });
  const line = out.split("\n").find((l) => l.includes(script));
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

/**
 * Whether a process of the group still runs. `npm` ends at once on SIGTERM, so `npm start`'s script
 * is left to the machine's init, which may take seconds to collect it once it has exited: a group
 * of nothing but exited (zombie) processes has stopped. Without /proc, any member counts.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  let pids: string[];
  try {
    pids = fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return true;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ")".
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z") return true;
  }
  return false;
}
