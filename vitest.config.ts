import { defineConfig } from "vitest/config";
import LongestFirst from "./tests/helpers/sequencer.ts";

// Four suites: unit (no server), integration (the real bank over HTTP), pg (the same on a real
// PostgreSQL server plus concurrency; skipped without TEST_DATABASE_URL) and e2e (real Chromium).
export default defineConfig({
  resolve: {
    alias: {
      "@": new URL(".", import.meta.url).pathname,
      // Tests import server modules directly; outside Next's server build the package would throw.
      "server-only": new URL("./tests/helpers/server-only.ts", import.meta.url).pathname,
    },
  },
  test: {
    // expect.poll's own default is one second: on a loaded two-core machine a save or a page's next
    // fetch takes longer, and a poll that gives up early fails a test the product passes.
    expect: { poll: { timeout: 15_000 } },
    // The longest files first in each suite (tests/helpers/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    // Under `npm run test:profile`, says which file each worker runs (a no-op otherwise).
    setupFiles: ["tests/helpers/profile-file.ts"],
    projects: [
      // Projects of a run with different worker counts each need a group of their own: unit
      // first, then integration, then the PostgreSQL suite.
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          environment: "node",
          // The unit files hold no server and no process-wide state: they share their workers'
          // modules instead of loading them again for each file (22 CPU-s against 48 for the
          // suite, 30 Nov; passes shuffled, and in one worker).
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          // Three files at a time on a two-core machine: a file mostly waits on its bank and
          // database (1,056 s against 1,584 s one at a time, same tests).
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "pg",
          include: ["tests/pg/**/*.test.ts"],
          sequence: { groupOrder: 2 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          // One build for every file, made before any starts; then two files at a time, each with
          // its own bank, dashboard and Chromium (most of a file's time is waiting on them).
          globalSetup: ["tests/helpers/e2e-setup.ts"],
          maxWorkers: 2,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
