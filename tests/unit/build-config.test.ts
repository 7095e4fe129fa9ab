// The build settings a start and a benchmark rely on: `npm start` skips the type check that
// `npm test` and CI run on their own, and no build folder makes Next rewrite tsconfig.json.

import fs from "node:fs";
import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";

const require = createRequire(import.meta.url);
const { getTypeDefinitionGlobPatterns } = require("next/dist/lib/typescript/type-paths.js") as {
  getTypeDefinitionGlobPatterns: (distDir: string) => string[];
};

async function nextConfig(env: Record<string, string | undefined>) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    // A fresh module instance per call: the file reads the environment when it loads.
    vi.resetModules();
    const file = "../../next.config.js";
    const mod = (await import(/* @vite-ignore */ file)) as {
      default: (phase: string) => Record<string, unknown>;
    };
    return mod.default("phase-production-build");
  } finally {
    process.env = saved;
  }
}

describe("build configuration", () => {
  afterEach(() => {
    delete process.env.NEXT_START_BUILD;
  });

  it("skips the type check only in the build npm start makes", async () => {
    const start = await nextConfig({ NEXT_START_BUILD: "1" });
    expect(start.typescript).toEqual({ ignoreBuildErrors: true });
    const plain = await nextConfig({ NEXT_START_BUILD: undefined });
    expect(plain.typescript).toEqual({ ignoreBuildErrors: false });
  });

  it("lists every build folder's type globs in tsconfig.json, so no build rewrites it", () => {
    const tsconfig = JSON.parse(fs.readFileSync("tsconfig.json", "utf8")) as { include: string[] };
    // The build folders the benchmarks name as their defaults (the tests share `npm start`'s).
    const folders = [".next"];
    for (const file of ["bench/dashboard.bench.ts", "bench/ui-layout.bench.ts"]) {
      const dir = /process\.env\.\w+ \|\| "(\.next[^"]*)"/.exec(fs.readFileSync(file, "utf8"))?.[1];
      expect(dir, file).toBeTruthy();
      folders.push(dir as string);
    }
    for (const dir of folders)
      for (const glob of getTypeDefinitionGlobPatterns(dir)) expect(tsconfig.include).toContain(glob);
  });
});
