// The browser suite's global setup: builds the dashboard once (or finds the build current) before
// any file starts, so files that run side by side each start `npm start` on a finished build
// rather than wait in turn on the build lock inside their own hook's time limit.
import { spawnSync } from "node:child_process";
import path from "node:path";

export default function setup(): void {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
  const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts", "--build-only"], {
    cwd: root,
    stdio: "inherit",
    env: process.env,
  });
  if (r.status !== 0) throw new Error(`the dashboard build failed (exit ${r.status})`);
}
