// One statement export as the dashboard makes it, in a process of its own (run with the
// react-server condition, as Next runs route code): prints the time to the file's last byte, its
// size and the peak growth of this process's resident memory while it was written.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BankClient } from "../../lib/bank-client/client.ts";
import { TokenManager } from "../../lib/bank-client/token-manager.ts";
import { openDashboardDb } from "../../lib/db/client.ts";
import { prepareStatement, type StatementFormat } from "../../lib/statements/export.ts";

const { BENCH_BANK_URL, BENCH_KEY, BENCH_ACCOUNT, BENCH_FROM, BENCH_TO, BENCH_FORMAT } = process.env;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "statements-bench-"));
const db = await openDashboardDb({ dataDir: path.join(dir, "db") });
const bank = new BankClient({
  bankUrl: BENCH_BANK_URL as string,
  subscriptionKey: BENCH_KEY as string,
  tokens: new TokenManager({ db, bankUrl: BENCH_BANK_URL as string, subscriptionKey: BENCH_KEY as string }),
  timeoutMs: 60_000,
});
// Warm: the token and the first connection are not the export's cost.
await bank.call("accountList");
global.gc?.();
const base = process.memoryUsage().rss;
let peak = base;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
const started = performance.now();
const prepared = await prepareStatement(
  bank,
  BENCH_FORMAT as StatementFormat,
  { accounts: [BENCH_ACCOUNT as string], from: BENCH_FROM as string, to: BENCH_TO as string },
  { names: new Map(), timeZone: "America/New_York" },
);
let bytes = 0;
const reader = prepared.body.getReader();
for (;;) {
  const { done, value } = await reader.read();
  if (done) break;
  bytes += value.byteLength;
  peak = Math.max(peak, process.memoryUsage().rss);
}
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
await db.close();
fs.rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ seconds, bytes, rssGrowthMb: (peak - base) / 2 ** 20 }));
process.exit(0);
