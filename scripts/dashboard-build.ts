// Whether the dashboard's build is older than its sources, and the lock that keeps two builds out
// of one build folder: `npm start` (scripts/start.ts) and the simulator (sim/cluster.ts) both build
// on demand, into the same folder.
import fs from "node:fs";
import path from "node:path";

/** Everything `next build` reads from the repository. */
const SOURCES = [
  "app",
  "components",
  "hooks",
  "lib",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.js",
  "postcss.config.mjs",
  "package.json",
];

function newestSource(root: string): number {
  let newest = 0;
  const walk = (p: string) => {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const e of fs.readdirSync(p))
        if (e !== "node_modules" && !e.startsWith(".")) walk(path.join(p, e));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of SOURCES) walk(path.join(root, p));
  return newest;
}

/**
 * Written once `next build` has succeeded: Next writes BUILD_ID early, so a build stopped half-way
 * (killed, out of memory) would otherwise look finished, and the server would fail on what it lacks.
 */
const COMPLETE = "BUILD_COMPLETE";

/** When the finished build in `distDir` was made (0: none, or one that never finished). */
export function builtAt(root: string, distDir: string): number {
  const done = path.join(root, distDir, COMPLETE);
  return fs.existsSync(done) ? fs.statSync(done).mtimeMs : 0;
}

/** Marks the build in `distDir` finished, as of when it began (a source saved during it makes it stale). */
export function markBuilt(root: string, distDir: string, startedAt: number): void {
  const done = path.join(root, distDir, COMPLETE);
  fs.writeFileSync(done, new Date(startedAt).toISOString());
  const at = new Date(startedAt);
  fs.utimesSync(done, at, at);
}

/** A build exists and no source is newer than it. */
export function buildIsCurrent(root: string, distDir: string): boolean {
  const built = builtAt(root, distDir);
  return built > 0 && built >= newestSource(root);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `fn` holding the build lock of `distDir`: two builds into one folder would corrupt it, so
 * a second waits for the first. A lock left by a build that died more than 15 minutes ago is
 * stale and taken over; after waiting 15 minutes for a live one, `onTimeout` decides.
 */
export async function withBuildLock(
  root: string,
  distDir: string,
  fn: () => Promise<void>,
  onTimeout: (lock: string) => Promise<never>,
): Promise<void> {
  const lock = path.join(root, `${distDir}-build.lock`);
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      if (Date.now() - fs.statSync(lock).mtimeMs > 15 * 60_000)
        fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) await onTimeout(lock);
      else await sleep(1000);
    }
  }
  const release = () => fs.rmSync(lock, { recursive: true, force: true });
  process.once("exit", release);
  try {
    await fn();
  } finally {
    release();
  }
}
