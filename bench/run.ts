// `npm run bench`: runs every bench/*.bench.ts (or those named on the command line) in turn.
// A benchmark changes nothing tracked but the results it records: the run fails if it did.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const dir = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(dir, "..");

/** Tracked files that differ from the last commit, results aside. */
function changedTrackedFiles(): Set<string> {
  try {
    const out = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: root,
      encoding: "utf8",
    });
    return new Set(
      out
        .split("\n")
        .map((l) => l.slice(3).trim())
        .filter((f) => f && !f.startsWith("bench/results/")),
    );
  } catch {
    // Not a git checkout (an unpacked archive): nothing to compare.
    return new Set();
  }
}

const before = changedTrackedFiles();
const wanted = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => !wanted.length || wanted.some((w) => f.startsWith(w)))
  .sort();
for (const f of files) {
  console.log(`\n== ${f}`);
  const mod = (await import(path.join(dir, f))) as { run: () => Promise<void> };
  await mod.run();
}
const touched = [...changedTrackedFiles()].filter((f) => !before.has(f));
if (touched.length) {
  console.error(`The benchmarks changed tracked files: ${touched.join(", ")}`);
  process.exit(1);
}
process.exit(0);
