// The ceiling of a SEN transfer: the route's transfer executor in a loop, no HTTP and no JSON
// parsing of requests, on the seeded accounts.
import { randomUUID } from "node:crypto";
import type { BankDb } from "../../bank/db/client.ts";
import { createTransferExecutor, type TransferRecord } from "../../bank/ledger/transfers.ts";
import { type BenchResult, round } from "../lib.ts";
import { SECONDS } from "./process.ts";

export async function sqlCeiling(
  db: BankDb,
  {
    customerId,
    accounts,
    opened,
    pg,
  }: { customerId: number; accounts: string[]; opened: string; pg: boolean },
): Promise<BenchResult[]> {
  // Under load the route sends batches of up to 32 (group commit), as many at once as
  // the executor has slots (4 on PostgreSQL, 1 on PGlite); the loop keeps every slot's next
  // batch queued, so the ratio shows what HTTP costs. The same executor one transfer per
  // statement (8 slots on PostgreSQL, 1 on PGlite) is recorded beside it.
  const desc = (first: string) => [first, "BENCH", "", "", "", "", "", "", "", "", ""];
  let n = 0;
  const record = (): TransferRecord => {
    n++;
    const from = accounts[(n * 7919) % accounts.length];
    let to = accounts[(n * 104729 + 1) % accounts.length];
    if (to === from) to = accounts[(n * 7919 + 1) % accounts.length];
    return {
      customer: customerId,
      from,
      to,
      cents: 1,
      key: randomUUID(),
      hash: "h",
      now: new Date().toISOString(),
      date: opened,
      fromDesc: desc(`SEN to ${to}`),
      toDesc: desc(`SEN from ${from}`),
      serial1: "",
      serial2: "",
      id: `SEN${randomUUID().slice(0, 12)}`,
    };
  };
  const loop = async (slots: number, batch: number): Promise<number> => {
    const executor = createTransferExecutor(db, { slots, maxBatch: batch, gather: !pg });
    let done = 0;
    const started = performance.now();
    const deadline = started + (SECONDS / 4) * 1000;
    // Two batches' worth per slot in flight: one running, one queued behind it.
    await Promise.all(
      Array.from({ length: slots * batch * 2 }, async () => {
        while (performance.now() < deadline) {
          const r = await executor.execute(record());
          if (r.code !== "ok") throw new Error(`transfer: ${r.code}`);
          done++;
        }
      }),
    );
    return done / ((performance.now() - started) / 1000);
  };
  const batched = await loop(pg ? 4 : 1, 32);
  const single = await loop(pg ? 8 : 1, 1);
  return [
    {
      name: "transfersen_sql_loop_ceiling",
      value: round(batched),
      unit: "transfers/s",
      better: "higher",
      note: `batches of 32, ${pg ? 4 : 1} at once`,
    },
    {
      name: "transfersen_sql_loop_one_per_statement",
      value: round(single),
      unit: "transfers/s",
      better: "higher",
      note: `${pg ? 8 : 1} at once, one transfer per statement`,
    },
  ];
}
