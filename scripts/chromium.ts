// Where the browser tests and the browser benchmarks find Chromium: `CHROMIUM_PATH`, else Debian's
// headless shell, else Debian's full browser. The headless shell is the same Blink without the
// browser's own layer: one browser file (tests/e2e/dashboard.test.ts) cost it 37–40 CPU-s against
// 53–56 for the full browser, in 10 processes against 16 (30 Nov, two runs each, alternated).
import fs from "node:fs";

/** Debian's packages, best first; the headless shell is the one `npm test` installs when none is found. */
export const CHROMIUM_CANDIDATES = [
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
];
export const CHROMIUM_PACKAGE = "chromium-headless-shell";

/** The binary to launch: `CHROMIUM_PATH` when set and present, else the first candidate installed, else null. */
export function findChromium(): string | null {
  for (const p of [process.env.CHROMIUM_PATH, ...CHROMIUM_CANDIDATES]) if (p && fs.existsSync(p)) return p;
  return null;
}

/** The binary the browser tests and benchmarks launch: the one found, else the headless shell's path (Playwright then says it is missing). */
export const chromiumPath = (): string => findChromium() ?? CHROMIUM_CANDIDATES[0];
