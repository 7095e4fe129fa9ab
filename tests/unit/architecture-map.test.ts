// docs/architecture.md maps every folder a newcomer meets: a folder added without its line fails here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const map = fs.readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
const folders = (dir: string) =>
  fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith(".") && e.name !== "node_modules")
    .map((e) => e.name);

describe("the architecture map", () => {
  it("names every folder of lib/ by its path", () => {
    const missing = folders("lib").filter((f) => !map.includes(`lib/${f}/`));
    expect(missing).toEqual([]);
  });

  it("names every top-level folder and every folder of bank/, components/, tests/, bench/ and sim/", () => {
    const top = folders(".").filter((f) => !["coverage", "test-results"].includes(f));
    const missing = [
      ...top.filter((f) => !map.includes(`${f}/`)),
      ...folders("bank").filter((f) => !map.includes(`${f}/`)),
      ...folders("components").filter((f) => !map.includes(`${f}/`)),
      ...["tests", "bench", "sim"].flatMap((d) => folders(d).filter((f) => !map.includes(`${f}/`))),
    ];
    expect(missing).toEqual([]);
  });
});
