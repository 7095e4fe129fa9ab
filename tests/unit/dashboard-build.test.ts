// When `npm start` rebuilds the dashboard: a build stopped half-way (BUILD_ID written, the rest
// not) is no build, and a source saved after a build began makes it stale.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildIsCurrent, builtAt, markBuilt } from "../../scripts/dashboard-build.ts";

const roots: string[] = [];
function repo(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "build-current-"));
  roots.push(root);
  fs.mkdirSync(path.join(root, "app"));
  fs.writeFileSync(path.join(root, "app/page.tsx"), "export default 1;\n");
  const old = new Date(Date.now() - 60_000);
  fs.utimesSync(path.join(root, "app/page.tsx"), old, old);
  fs.mkdirSync(path.join(root, ".next"));
  return root;
}
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

describe("the dashboard build", () => {
  it("is no build while only Next's BUILD_ID exists (a build killed half-way)", () => {
    const root = repo();
    fs.writeFileSync(path.join(root, ".next/BUILD_ID"), "abc");
    expect(builtAt(root, ".next")).toBe(0);
    expect(buildIsCurrent(root, ".next")).toBe(false);
  });

  it("is current once marked finished, and stale when a source changes after it began", () => {
    const root = repo();
    const began = Date.now() - 10_000;
    markBuilt(root, ".next", began);
    expect(buildIsCurrent(root, ".next")).toBe(true);
    fs.writeFileSync(path.join(root, "app/page.tsx"), "export default 2;\n");
    expect(buildIsCurrent(root, ".next")).toBe(false);
  });
});
