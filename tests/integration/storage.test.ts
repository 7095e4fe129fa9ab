import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bankNodeArgs } from "../../scripts/bank-build.ts";
import { startTestBank } from "../helpers/bank.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe("embedded storage", () => {
  it("refuses loudly to open a PGlite directory another process is using", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bank-lock-"));
    dirs.push(dir);
    const first = await startTestBank({ dataDir: dir });
    try {
      const child = spawn(process.execPath, await bankNodeArgs(process.cwd()), {
        env: { ...process.env, BANK_PORT: "0", BANK_DATA_DIR: dir, BANK_SANDBOX_KEY: "x" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (d) => {
        stderr += d;
      });
      const code = await new Promise<number | null>((r) => child.on("exit", r));
      expect(code).not.toBe(0);
      expect(stderr).toMatch(/is in use by process \d+/);
      // The first process still works.
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    } finally {
      await first.close();
    }
    // Once closed, the directory opens again and keeps its data.
    const again = await startTestBank({ dataDir: dir });
    expect((await fetch(`${again.url}/healthz`)).status).toBe(200);
    await again.close();
  });
});
