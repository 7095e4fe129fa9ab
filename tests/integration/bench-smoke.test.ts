// The benchmarks still run: every bench/*.bench.ts loads and exports its `run`, and the bank's
// (the one with no browser and no production build to wait for) runs whole at its smallest size
// (BENCH_SMOKE=1) into a scratch folder. Nothing here judges a figure: a shared machine's timings
// mean nothing at this size; `npm run bench` records the real ones (bench/README.md).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const BENCH = path.join(ROOT, "bench");

describe("the benchmarks", () => {
  const files = fs.readdirSync(BENCH).filter((f) => f.endsWith(".bench.ts"));

  it.each(files)("%s loads and exports run()", async (f) => {
    const mod = (await import(path.join(BENCH, f))) as { run?: unknown };
    expect(typeof mod.run).toBe("function");
  });

  it("runs the bank's benchmark whole at its smallest size", { timeout: 600_000 }, async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "bench-smoke-"));
    try {
      const child = spawn(process.execPath, ["--import", "tsx", "bench/run.ts", "bank"], {
        cwd: ROOT,
        env: {
          ...process.env,
          BENCH_SMOKE: "1",
          BENCH_BANK_BACKENDS: "pglite",
          BENCH_RESULTS_DIR: out,
          NODE_ENV: "production",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let log = "";
      child.stdout?.on("data", (d) => {
        log += d;
      });
      child.stderr?.on("data", (d) => {
        log += d;
      });
      const code = await new Promise<number | null>((r) => child.once("exit", r));
      expect(code, log.slice(-3000)).toBe(0);
      const written = JSON.parse(fs.readFileSync(path.join(out, "bank.json"), "utf8")) as {
        results: { name: string; value: number }[];
      };
      const names = written.results.map((r) => r.name);
      // Every PGlite figure the committed results hold is still measured.
      const recorded = JSON.parse(fs.readFileSync("bench/results/bank.json", "utf8")) as {
        results: { name: string }[];
      };
      const pgliteNames = recorded.results.map((r) => r.name).filter((n) => n.includes("pglite"));
      expect(pgliteNames.length).toBeGreaterThan(20);
      expect(names).toEqual(expect.arrayContaining(pgliteNames));
      for (const n of [
        "transfersen_http_pglite_10k_accounts",
        "transfersen_pglite_sql_loop_ceiling",
        "history_520_items_pglite_p99",
        "transfersen_http_pglite_observability_cost_ratio",
      ])
        expect(names).toContain(n);
      for (const r of written.results) expect(Number.isFinite(r.value), r.name).toBe(true);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
