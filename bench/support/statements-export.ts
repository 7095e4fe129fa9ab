// One statement export as the dashboard makes it, in a process of its own (run with the
// react-server condition, as Next runs route code, and --expose-gc): prints the time to the file's
// last byte, its size, and from the start (after a full collection) the peak growth of this
// process's resident memory and of its JavaScript heap in use, sampled every 20 ms. With
// BENCH_LIVE_GC_MS it also forces a full collection that often and prints the most heap in use
// just after one: what the export holds, without the garbage the collector has not yet taken.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BankClient } from "../../lib/bank-client/client.ts";
import { TokenManager } from "../../lib/bank-client/token-manager.ts";
import { openDashboardDb } from "../../lib/db/client.ts";
import { prepareStatement, type StatementFormat } from "../../lib/statements/export.ts";

const { BENCH_BANK_URL, BENCH_KEY, BENCH_ACCOUNT, BENCH_FROM, BENCH_TO, BENCH_FORMAT, BENCH_LIVE_GC_MS } =
  process.env;
const gc = global.gc;
if (!gc) throw new Error("run with --expose-gc");
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
gc();
const start = process.memoryUsage();
let peak = start.rss;
let peakHeap = start.heapUsed;
let liveHeap = start.heapUsed;
const sample = () => {
  const m = process.memoryUsage();
  peak = Math.max(peak, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
};
const sampler = setInterval(sample, 20);
const collector = BENCH_LIVE_GC_MS
  ? setInterval(() => {
      gc();
      liveHeap = Math.max(liveHeap, process.memoryUsage().heapUsed);
    }, Number(BENCH_LIVE_GC_MS))
  : null;
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
  sample();
}
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
if (collector) clearInterval(collector);
await db.close();
fs.rmSync(dir, { recursive: true, force: true });
const mb = (b: number) => b / 2 ** 20;
console.log(
  JSON.stringify({
    seconds,
    bytes,
    rssStartMb: mb(start.rss),
    rssGrowthMb: mb(peak - start.rss),
    heapStartMb: mb(start.heapUsed),
    peakHeapGrowthMb: mb(peakHeap - start.heapUsed),
    liveHeapGrowthMb: BENCH_LIVE_GC_MS ? mb(liveHeap - start.heapUsed) : null,
  }),
);
process.exit(0);
