// `npm test`: the type check, lint and every suite. Finds Chromium for the browser tests (CHROMIUM_PATH, then
// Debian's headless shell or full browser: scripts/chromium.ts), installs Debian's headless shell when it
// can, and otherwise says how.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import readline from "node:readline";
import { CHROMIUM_PACKAGE, findChromium } from "./chromium.ts";

let chromium = findChromium();
if (!chromium && process.getuid?.() === 0 && fs.existsSync("/usr/bin/apt-get")) {
  console.log(`Chromium not found: installing Debian's ${CHROMIUM_PACKAGE} package for the browser tests…`);
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", CHROMIUM_PACKAGE], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  chromium = findChromium();
}
if (!chromium) {
  console.error(
    `The browser tests need Chromium. Install it (Debian: \`sudo apt-get install ${CHROMIUM_PACKAGE}\`) or set CHROMIUM_PATH, then run \`npm test\` again.`,
  );
  process.exit(1);
}
if (!process.env.TEST_DATABASE_URL) {
  console.log("TEST_DATABASE_URL is not set: the PostgreSQL suite is skipped (see README).");
}

// The dashboard's build (which `npm start` serves to the integration files that start it, the
// simulator's proof and the browser suite) is made once, first, beside the type check and lint:
// every later start finds it current. Then the server suites; then the PostgreSQL suite (one file
// at a time; its files wait on servers, clocks and the database) beside the browser suite, which
// leaves an eighth of the machine idle on its own: 29 Nov, the two one after the other took 260 s
// and 541 s. Their outputs are told apart by a prefix on the PostgreSQL suite's lines.
const extra = process.argv.slice(2);
let failed = false;
const vitestArgs = (args: string[]) => ["vitest", "run", ...args];
const vitestEnv = { ...process.env, CHROMIUM_PATH: chromium };
const vitest = (args: string[]) =>
  spawnSync("npx", vitestArgs(args), { stdio: "inherit", env: vitestEnv }).status === 0;

/** A suite run beside another: its output line by line, each line behind `prefix`. */
function vitestPrefixed(args: string[], prefix: string): Promise<boolean> {
  const child = spawn("npx", vitestArgs(args), {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...vitestEnv, FORCE_COLOR: process.stdout.isTTY ? "1" : "0" },
  });
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const)
    readline.createInterface({ input: stream }).on("line", (line) => out.write(`${prefix}${line}\n`));
  return new Promise((resolve) => child.on("exit", (code) => resolve(code === 0)));
}

if (extra.length) {
  failed = !vitest(extra);
} else {
  const build = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts", "--build-only"], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  const built = new Promise<number | null>((resolve) => build.on("exit", resolve));
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
  // A failed build is reported by the first file that starts `npm start`, which builds again.
  await built;
  if (!vitest(["--project", "unit", "--project", "integration"])) failed = true;
  const pg = process.env.TEST_DATABASE_URL
    ? vitestPrefixed(["--project", "pg"], "[pg] ")
    : Promise.resolve(true);
  const e2e = vitestPrefixed(["--project", "e2e"], "");
  for (const ok of await Promise.all([pg, e2e])) if (!ok) failed = true;
}
process.exit(failed ? 1 : 0);
