// `npm run bench`: runs every bench/*.bench.ts (or those named on the command line) in turn.
import fs from "node:fs";
import path from "node:path";

const dir = path.dirname(new URL(import.meta.url).pathname);
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
process.exit(0);
