// Every setting either program reads from the environment is documented in the README: a new
// variable without its row there fails here, with its name and the file that reads it.

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCES = ["app", "bank", "lib", "scripts", "sim", "components", "hooks"];
const FILES = ["proxy.ts", "instrumentation.ts", "next.config.js"];
/** Set by the platform, not by an operator. */
const PLATFORM = new Set(["HOSTNAME", "NEXT_RUNTIME"]);

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules" && !e.name.startsWith(".")) walk(p);
      } else if (/\.(ts|tsx|js|mjs)$/.test(e.name)) out.push(p);
    }
  };
  for (const d of SOURCES) walk(path.join(ROOT, d));
  return [...out, ...FILES.map((f) => path.join(ROOT, f)).filter((f) => fs.existsSync(f))];
}

/** Names read as `env.X`, `process.env.X`, `env["X"]`, `int("X", …)`, or keys of the dashboard's schema. */
function settingsRead(): Map<string, string> {
  const found = new Map<string, string>();
  const patterns = [
    /\benv\.([A-Z][A-Z0-9_]+)\b/g,
    /\benv\["([A-Z][A-Z0-9_]+)"\]/g,
    /\bint\("([A-Z][A-Z0-9_]+)"/g,
  ];
  for (const file of sourceFiles()) {
    const text = fs.readFileSync(file, "utf8");
    for (const re of patterns)
      for (const m of text.matchAll(re)) if (!found.has(m[1])) found.set(m[1], path.relative(ROOT, file));
  }
  // The dashboard's settings are the keys of one zod object in lib/config.ts.
  const config = fs.readFileSync(path.join(ROOT, "lib/config.ts"), "utf8");
  for (const m of config.matchAll(/^ {2}([A-Z][A-Z0-9_]{2,}):/gm))
    if (!found.has(m[1])) found.set(m[1], "lib/config.ts");
  return found;
}

describe("README configuration", () => {
  it("documents every environment variable the programs read", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    const read = settingsRead();
    // The scan itself works: it finds settings of both programs.
    expect(read.get("BANK_PORT")).toBe("bank/config.ts");
    expect(read.has("NEXTAUTH_SECRET")).toBe(true);
    expect(read.has("APPROVAL_DIGEST_CHECK_SECONDS")).toBe(true);
    expect(read.size).toBeGreaterThan(40);
    const missing = [...read]
      .filter(([name]) => !PLATFORM.has(name) && !new RegExp(`\\b${name}\\b`).test(readme))
      .map(([name, file]) => `${name} (read in ${file})`);
    expect(missing).toEqual([]);
  });
});
