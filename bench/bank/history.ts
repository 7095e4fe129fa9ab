// History reads over the account holding 90 days of 5,000 entries a day: a week's page (520
// entries) and a day's extended history (5,000 entries).
import { addDays } from "../../lib/bank-api/dates.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { type BenchResult, percentile } from "../lib.ts";
import type { requester } from "../support/load.ts";
import { HISTORY_READS, type Seeded } from "./process.ts";

export async function historyReads(
  label: string,
  send: ReturnType<typeof requester>,
  seeded: Seeded,
  jwt: string,
): Promise<BenchResult[]> {
  const tag = (n: string) => n.replace("{db}", label);

  const historyLat: number[] = [];
  const extLat: number[] = [];
  const auth = { [BANK_HEADERS.subscriptionKey]: seeded.key, [BANK_HEADERS.authorization]: jwt };
  // Enough samples that p99 is not simply the slowest of a few dozen.
  for (let i = 0; i < HISTORY_READS; i++) {
    const day = seeded.historyDays[(i * 17) % seeded.historyDays.length];
    let t = performance.now();
    const r = await send({
      method: "GET",
      path: `/v2/account/history?accountNumber=${seeded.historyAccount}&beginDate=${day}&endDate=${addDays(day, 7)}`,
      headers: auth,
    });
    historyLat.push(performance.now() - t);
    if (!r.body.includes('"RECS_RETURNED":520')) throw new Error(`history: ${r.body.slice(0, 200)}`);
    if (i % 3 === 0) {
      t = performance.now();
      const e = await send({
        method: "GET",
        path: `/v2/account/extendedhistory?accountNumber=${seeded.historyAccount}&date=${day}`,
        headers: auth,
      });
      extLat.push(performance.now() - t);
      if (!e.body.includes('"RECS_RETURNED":5000'))
        throw new Error(`extendedhistory: ${e.body.slice(0, 200)}`);
    }
  }
  return [
    {
      name: tag("history_520_items_{db}_p50"),
      value: percentile(historyLat, 50),
      unit: "ms",
      better: "lower",
    },
    {
      name: tag("history_520_items_{db}_p99"),
      value: percentile(historyLat, 99),
      unit: "ms",
      better: "lower",
      target: 30,
    },
    {
      name: tag("extendedhistory_5000_items_{db}_p50"),
      value: percentile(extLat, 50),
      unit: "ms",
      better: "lower",
    },
    {
      name: tag("extendedhistory_5000_items_{db}_p99"),
      value: percentile(extLat, 99),
      unit: "ms",
      better: "lower",
      target: 250,
    },
  ];
}
