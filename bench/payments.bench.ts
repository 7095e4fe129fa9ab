// GET /v2/payment returning 1,000 records (the default page) over HTTP, with token and key, on
// an account holding 1,000 wires; also POST /v2/payment latency (hold + payment row + outbox in
// one statement). Runs on PGlite and, when TEST_DATABASE_URL (or BENCH_DATABASE_URL) is set, on
// PostgreSQL.
import os from "node:os";
import { listPaymentsJson } from "../bank/payments/list.ts";
import { outgoingDetails } from "../bank/payments/records.ts";
import { BANK_HEADERS } from "../lib/bank-api/headers.ts";
import { initiatePaymentRequest, paymentListQuery } from "../lib/bank-api/payments.ts";
import { newCustomer, startTestBank, type TestBank } from "../tests/helpers/bank.ts";
import { type BenchResult, percentile, round, writeResults } from "./lib.ts";
import { requester } from "./support/load.ts";

const LIST_ROUNDS = Number(process.env.BENCH_PAYMENT_LIST_ROUNDS ?? 300);
const POST_ROUNDS = Number(process.env.BENCH_PAYMENT_POST_ROUNDS ?? 500);

async function measure(label: string, bank: TestBank): Promise<BenchResult[]> {
  const c = await newCustomer(bank, "Bench Wires Inc");
  const acct = await c.account("DDA", 10_000_000);
  const { db, clock } = bank.running.bank;
  const today = clock.businessDate();
  const sample = initiatePaymentRequest.parse({
    originator_account_number: acct,
    amount: 1250.75,
    receiving_bank_routing_id: "011000015",
    receiving_bank_name: "FIRST EXAMPLE BANK",
    beneficiary_bank_type: "SWIFT",
    beneficiary_bank_routing_id: "DEUTDEFF500",
    beneficiary_name: "ACME GMBH",
    beneficiary_account_number: "DE89370400440532013000",
    beneficiary_address1: "1 HAUPTSTRASSE",
    originator_to_beneficiary_info: "INVOICE 2026-0042 FOR SERVICES RENDERED",
  });
  // 1,000 settled wires on one day, written in bulk.
  await db.query(
    `INSERT INTO payments (id, customer_id, account_number, direction, status, status_timestamp, amount_cents,
       fedwire_type, fedwire_sub_type, payment_date, entry_at, completed_at, imad, omad, details)
     SELECT 'B' || lpad(g::text, 14, '0'), $1, $2, 'Outgoing', 'Complete',
       to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS'), 100000 + g, '10', '00', $3,
       now() + make_interval(secs => g), now(), '20261122TRSBNK01' || lpad(g::text, 6, '0'),
       '20261122FRBNYC1R' || lpad(g::text, 6, '0') || '11221200', $4::jsonb
     FROM generate_series(1, 1000) g`,
    [
      c.customerId,
      acct,
      today,
      JSON.stringify({ ...outgoingDetails(sample), originator_name: "BENCH WIRES INC" }),
    ],
  );
  const send = requester(bank.url, 1);
  const headers = { [BANK_HEADERS.subscriptionKey]: c.key, [BANK_HEADERS.authorization]: c.token };
  const api = (method: string, path: string, body?: string) =>
    send({
      method,
      path,
      headers: body ? { ...headers, "content-type": "application/json" } : headers,
      body,
    });

  const listPath = `/v2/payment?account_number=${acct}&begin_date=${today}`;
  const first = await api("GET", listPath);
  const count = (JSON.parse(first.body) as unknown[]).length;
  if (first.status !== 200 || count !== 1000)
    throw new Error(`expected 1000 records, got ${first.status} ${count}`);
  for (let i = 0; i < 20; i++) await api("GET", listPath);
  const listMs: number[] = [];
  // CPU time of this process per request: with PGlite it holds client, server and database, so it
  // shows the work a request costs even when other programs share the machine.
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < LIST_ROUNDS; i++) {
    const t = performance.now();
    const r = await api("GET", listPath);
    listMs.push(performance.now() - t);
    if (r.status !== 200) throw new Error(`GET /v2/payment answered ${r.status}`);
  }

  const cpu = process.cpuUsage(cpuBefore);
  const cpuMsPerList = (cpu.user + cpu.system) / 1000 / LIST_ROUNDS;

  // The same page without HTTP: the database's share of the request.
  const parsedQuery = paymentListQuery.parse({ account_number: acct, begin_date: today });
  const queryMs: number[] = [];
  for (let i = 0; i < LIST_ROUNDS; i++) {
    const t = performance.now();
    await listPaymentsJson(db, clock, parsedQuery);
    queryMs.push(performance.now() - t);
  }

  const body = JSON.stringify({ ...sample, amount: 1.25 });
  const postMs: number[] = [];
  for (let i = 0; i < POST_ROUNDS; i++) {
    const t = performance.now();
    const r = await api("POST", "/v2/payment", body);
    postMs.push(performance.now() - t);
    if (r.status !== 200) throw new Error(`POST /v2/payment answered ${r.status}`);
  }

  return [
    {
      name: `payment_list_1000_http_${label}_p99`,
      value: percentile(listMs, 99),
      unit: "ms",
      better: "lower",
      target: 50,
      note: `GET /v2/payment, 1,000 records (about ${Math.round(first.body.length / 1024)} KiB JSON), ${LIST_ROUNDS} sequential requests; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs`,
    },
    {
      name: `payment_list_1000_http_${label}_cpu_per_request`,
      value: round(cpuMsPerList, 2),
      unit: "ms",
      better: "lower",
      note:
        label === "pglite"
          ? "CPU time of the one process (client, bank and PGlite) per GET"
          : "CPU time of the client and bank process per GET (PostgreSQL's own work excluded)",
    },
    {
      name: `payment_list_1000_query_${label}_p99`,
      value: percentile(queryMs, 99),
      unit: "ms",
      better: "lower",
      note: "the same page read in-process, without HTTP, key, token or ownership check",
    },
    {
      name: `payment_list_1000_http_${label}_p50`,
      value: percentile(listMs, 50),
      unit: "ms",
      better: "lower",
    },
    {
      name: `payment_initiate_http_${label}_p99`,
      value: percentile(postMs, 99),
      unit: "ms",
      better: "lower",
      note: `POST /v2/payment, ${POST_ROUNDS} sequential wires (validation, hold, payment row, outbox)`,
    },
    {
      name: `payment_initiate_http_${label}_per_second`,
      value: round(POST_ROUNDS / (postMs.reduce((a, b) => a + b, 0) / 1000)),
      unit: "wires/s",
      better: "higher",
      note: "one client, sequential",
    },
  ];
}

export async function run() {
  const results: BenchResult[] = [];
  const pglite = await startTestBank();
  try {
    results.push(...(await measure("pglite", pglite)));
  } finally {
    await pglite.close();
  }
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const pg = await startTestBank({ postgres: true });
    try {
      results.push(...(await measure("pg", pg)));
    } finally {
      await pg.close();
    }
  }
  writeResults("payments", results);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
