// `npm test`: the type check, lint and every suite. Finds Chromium for the browser tests (CHROMIUM_PATH, then
// /usr/bin/chromium), installs Debian's package when it can, and otherwise says how.
import { execFileSync, spawnSync } from "node:child_process";
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
// integration servers would only make both slower and noisier on a two-core machine.
const extra = process.argv.slice(2);
const phases = extra.length
  ? [extra]
  : [
      ["--project", "unit", "--project", "integration", "--project", "pg"],
      ["--project", "e2e"],
    ];
let failed = false;
// The start script's build skips type checking, so the full run checks types and lint itself.
if (!extra.length) {
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
}
for (const phase of phases) {
  const r = spawnSync("npx", ["vitest", "run", ...phase], {
    stdio: "inherit",
    env: { ...process.env, CHROMIUM_PATH: chromium },
  });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
