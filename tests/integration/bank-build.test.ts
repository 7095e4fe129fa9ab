// The bank's bundle (scripts/bank-build.ts) in a tree of its own: what it runs is the sources as
// they are now (an edited module is bundled again before the next start, an untouched tree is not),
// and each module still reads its own file's URL, which the bank finds its migrations by.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BANK_BUILD_DIR, BANK_BUNDLE, bankNodeArgs } from "../../scripts/bank-build.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "bank-build-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const write = (file: string, text: string, at: Date) => {
  const p = path.join(root, file);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
  fs.utimesSync(p, at, at);
};
const run = async () => execFileSync(process.execPath, await bankNodeArgs(root), { encoding: "utf8" }).trim();
const bundleTime = () => fs.statSync(path.join(root, BANK_BUILD_DIR, BANK_BUNDLE)).mtimeMs;

describe("the bank's bundle", () => {
  const past = new Date(Date.now() - 60_000);
  write("bank/main.ts", 'import { said } from "./db/said.ts";\nconsole.log(said());\n', past);
  write(
    "bank/db/said.ts",
    "export const said = (): string => JSON.stringify({ v: 1, url: import.meta.url });\n",
    past,
  );

  it("runs the sources, and keeps each module's own URL", async () => {
    expect(JSON.parse(await run())).toEqual({
      v: 1,
      url: pathToFileURL(path.join(root, "bank/db/said.ts")).href,
    });
  });

  it("is not made again while no source it holds changed", async () => {
    const before = bundleTime();
    write("bank/unused.ts", "export const x = 1;\n", new Date());
    expect(JSON.parse(await run()).v).toBe(1);
    expect(bundleTime()).toBe(before);
  });

  it("is made again once a module it holds is newer, and runs the change", async () => {
    write(
      "bank/db/said.ts",
      "export const said = (): string => JSON.stringify({ v: 2, url: import.meta.url });\n",
      new Date(),
    );
    expect(JSON.parse(await run()).v).toBe(2);
  });
});
