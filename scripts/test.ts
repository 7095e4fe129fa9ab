// `npm test`: the type check, lint and every suite. Finds Chromium for the browser tests (CHROMIUM_PATH, then
// /usr/bin/chromium), installs Debian's package when it can, and otherwise says how.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";

function findChromium(): string | null {
  for (const p of [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"]) {
    if (p && fs.existsSync(p)) return p;
  }
  return null;
}

let chromium = findChromium();
if (!chromium && process.getuid?.() === 0 && fs.existsSync("/usr/bin/apt-get")) {
  console.log("Chromium not found: installing Debian's chromium package for the browser tests…");
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  chromium = findChromium();
}
if (!chromium) {
  console.error(
    "The browser tests need Chromium. Install it (Debian: `sudo apt-get install chromium`) or set CHROMIUM_PATH, then run `npm test` again.",
  );
  process.exit(1);
}
if (!process.env.TEST_DATABASE_URL) {
  console.log("TEST_DATABASE_URL is not set: the PostgreSQL suite is skipped (see README).");
}

// Server suites first, then the browser suite alone: a `next build` and Chromium beside the
// integration servers would only make both slower and noisier on a two-core machine. The
// PostgreSQL suite runs one file at a time and leaves about half the machine idle: the browser
// suite's build (which its simulator's proof needs as well) is made meanwhile, under the build
// lock `npm start` and the simulator take, so neither builds it a second time.
const extra = process.argv.slice(2);
let failed = false;
const vitest = (args: string[]) =>
  spawnSync("npx", ["vitest", "run", ...args], {
    stdio: "inherit",
    env: { ...process.env, CHROMIUM_PATH: chromium },
  }).status === 0;
if (extra.length) {
  failed = !vitest(extra);
} else {
  // The start script's build skips type checking, so the full run checks types and lint itself.
  for (const [what, args] of [
    ["typecheck", ["tsc", "--noEmit", "-p", "tsconfig.json"]],
    ["lint", ["biome", "check", "--error-on-warnings", "."]],
  ] as const) {
    const r = spawnSync("npx", [...args], { stdio: "inherit" });
    if (r.status !== 0) {
      console.error(`npm test: ${what} failed`);
      failed = true;
    }
  }
  if (!vitest(["--project", "unit", "--project", "integration"])) failed = true;
  if (process.env.TEST_DATABASE_URL) {
    const build = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts", "--build-only"], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    const built = new Promise<number | null>((resolve) => build.on("exit", resolve));
    if (!vitest(["--project", "pg"])) failed = true;
    // The browser suite's own setup builds again if this one failed, and says why.
    await built;
  }
  if (!vitest(["--project", "e2e"])) failed = true;
}
process.exit(failed ? 1 : 0);
