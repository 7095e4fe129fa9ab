// A setup file of every suite: under `npm run test:profile` (TEST_PROFILE_LOG set) it writes which
// test file this worker process runs and when, so the profiler can charge the CPU time of the
// worker and of everything it starts (banks, dashboards, Chromium) to that file. Without the
// variable it does nothing.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";

const log = process.env.TEST_PROFILE_LOG;
if (log) {
  const file = () => path.relative(process.cwd(), expect.getState().testPath ?? "unknown");
  const write = (event: "start" | "end") =>
    fs.appendFileSync(log, `${JSON.stringify({ event, pid: process.pid, file: file(), at: Date.now() })}\n`);
  beforeAll(() => write("start"));
  afterAll(() => write("end"));
}
