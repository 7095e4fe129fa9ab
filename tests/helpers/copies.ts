// The source check behind each "once" test: every TypeScript file of the product's folders but a
// rule's homes, searched for the patterns a second copy of that rule would match.
import fs from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

/** The product's folders a rule may be copied into. */
export const PRODUCT_FOLDERS = ["lib", "components", "app", "hooks", "sim"];

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "migrations" || e.name === "node_modules" ? [] : sources(rel);
    return /\.(ts|tsx)$/.test(e.name) ? [rel] : [];
  });
}

/** "file: pattern" for each file outside `homes` that matches a pattern; empty when the rule lives once. */
export function copiesOutside(homes: string[], patterns: RegExp[], folders = PRODUCT_FOLDERS): string[] {
  return folders
    .flatMap(sources)
    .filter((f) => !homes.includes(f))
    .flatMap((f) => {
      const text = fs.readFileSync(path.join(ROOT, f), "utf8");
      return patterns.filter((re) => re.test(text)).map((re) => `${f}: ${re}`);
    });
}
