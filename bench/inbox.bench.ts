// The approvals inbox in real Chromium against `npm start` (a production build), as an approver:
// - its first render with BENCH_INBOX_ITEMS (1,000) items waiting (incoming wires through the
//   bank's /sandbox, and ten drafts prepared by the preparer): navigation start to the first row,
//   and to the table being ready: every row in the DOM, or, with a virtualised table, the rows in
//   view with the whole count on the table (aria-rowcount); and how many rows the DOM then holds
//   (target under 1 s);
// - from a new incoming wire at the bank to the count in the navigation changing on a page left
//   open (the live stream's `inbox` event, lib/inbox/watch.ts), BENCH_INBOX_ROUNDS (10) wires, each
//   timed from just before the sandbox call to the new count in the page (target under 1 s);
// - what keeping the count live costs the bank: its GET /v2/payment answers per second, read
//   from the bank's own request counter, over BENCH_INBOX_WATCH_SECONDS (10) with the page open
//   and then with it closed (the watch stops when no page listens).
// Results: bench/results/inbox.json.
import os from "node:os";
import { launchChromium, signIn } from "../tests/helpers/browser.ts";
import { startDashboard } from "../tests/helpers/dashboard.ts";
import { demoBank } from "../tests/helpers/live.ts";
import { type BenchResult, percentile, round, writeResults } from "./lib.ts";
import { postIncomingWires } from "./support/incoming-wires.ts";

const ITEMS = Number(process.env.BENCH_INBOX_ITEMS || 1000);
const ROUNDS = Number(process.env.BENCH_INBOX_ROUNDS || 10);
const DRAFTS = 10;
const LOADS = 5;
const WATCH_SECONDS = Number(process.env.BENCH_INBOX_WATCH_SECONDS || 10);

/** The bank's GET /v2/payment answers so far, from its Prometheus request counter. */
async function paymentReads(bankUrl: string): Promise<number> {
  const text = await (await fetch(`${bankUrl}/metrics`)).text();
  let n = 0;
  for (const m of text.matchAll(/^bank_http_requests_total\{([^}]*)\} (\S+)$/gm))
    if (m[1].includes('method="GET"') && m[1].includes('route="/v2/payment"')) n += Number(m[2]);
  return n;
}

/** GET /v2/payment answers per second at the bank over the next `seconds`. */
async function paymentReadRate(bankUrl: string, seconds: number): Promise<number> {
  const before = await paymentReads(bankUrl);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  return ((await paymentReads(bankUrl)) - before) / seconds;
}

export async function run(): Promise<void> {
  const app = await startDashboard({ env: { BANK_SETTLE_AFTER_SECONDS: "86400" }, timeoutMs: 900_000 });
  const browser = await launchChromium();
  try {
    const { sandbox, bankUrl } = demoBank(app.dataDir);
    const preparerContext = await browser.newContext();
    const preparer = await signIn(app, preparerContext, "preparer", 120_000);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await signIn(app, context, "approver", 120_000);
    const accounts = (await (await page.request.get(`${app.url}/api/accounts`)).json()) as {
      accounts: { accountNumber: string; type: string }[];
    };
    const dda = (accounts.accounts.find((a) => a.type === "DDA") ?? accounts.accounts[0]).accountNumber;

    const count = async () =>
      ((await (await page.request.get(`${app.url}/api/inbox?view=count`)).json()) as { count: number }).count;
    for (let i = 0; i < DRAFTS; i++) {
      const r = await preparer.request.post(`${app.url}/api/wires`, {
        data: {
          idempotencyKey: crypto.randomUUID(),
          originator_account_number: dda,
          amount: `${100 + i}.00`,
          beneficiary_name: `BENCH PAYEE ${i}`,
          beneficiary_account_number: "88001",
          beneficiary_address1: "1 Quay Street",
          receiving_bank_routing_id: "021000021",
        },
      });
      if (r.status() !== 200) throw new Error(`a draft could not be made: ${await r.text()}`);
    }
    const missing = Math.max(0, ITEMS - (await count()));
    await postIncomingWires(sandbox, dda, missing);
    const waiting = await count();
    if (waiting < ITEMS) throw new Error(`the inbox holds ${waiting} items, expected ${ITEMS}`);

    // First render: the page records when its first row reached the DOM, and when the table was
    // ready (every row there, or a virtualised table's rows in view with the whole count announced).
    await context.addInitScript(() => {
      const w = window as unknown as {
        __firstRow?: number;
        __allRows?: number;
        __rowsInDom?: number;
        __want?: number;
      };
      new MutationObserver((_, obs) => {
        const rows = document.querySelectorAll("tbody tr[data-key]").length;
        if (rows && w.__firstRow === undefined) w.__firstRow = performance.now();
        const want = w.__want ?? Number.POSITIVE_INFINITY;
        const counted = Number(
          document.querySelector("table[aria-rowcount]")?.getAttribute("aria-rowcount") ?? 0,
        );
        if (rows && (rows >= want || counted - 1 >= want)) {
          w.__allRows = performance.now();
          w.__rowsInDom = rows;
          obs.disconnect();
        }
      }).observe(document, {
        childList: true,
        subtree: true,
        attributes: true,
        attributeFilter: ["aria-rowcount"],
      });
    });
    await context.addInitScript(`window.__want = ${waiting};`);
    const firstRows: number[] = [];
    const allRows: number[] = [];
    let rowsInDom = 0;
    for (let i = 0; i < LOADS + 1; i++) {
      await page.goto(`${app.url}/approvals`, { waitUntil: "commit" });
      await page.waitForFunction(
        () => (window as unknown as { __allRows?: number }).__allRows !== undefined,
        null,
        {
          timeout: 60_000,
        },
      );
      const t = await page.evaluate(() => {
        const w = window as unknown as { __firstRow: number; __allRows: number; __rowsInDom: number };
        return [w.__firstRow, w.__allRows, w.__rowsInDom];
      });
      rowsInDom = t[2];
      // The first load warms the server's compiled routes; it is not counted.
      if (i > 0) {
        firstRows.push(t[0]);
        allRows.push(t[1]);
      }
    }

    // A wire arrives at the bank while the accounts page is open: time to the new count.
    await page.goto(`${app.url}/accounts`);
    await page.getByText("Live", { exact: true }).waitFor({ timeout: 60_000 });
    const badge = page.locator('nav[aria-label="Main"] a[href="/approvals"] [data-inbox-count]');
    await badge.waitFor({ timeout: 60_000 });
    const delays: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const before = Number(await badge.getAttribute("data-inbox-count"));
      // The page notes when the count it shows changes; the clock is the page's, started here.
      await page.evaluate((from) => {
        const w = window as unknown as { __changedAt?: number };
        w.__changedAt = undefined;
        const el = document.querySelector('nav[aria-label="Main"] a[href="/approvals"]');
        const obs = new MutationObserver(() => {
          const n = Number(el?.querySelector("[data-inbox-count]")?.getAttribute("data-inbox-count") ?? from);
          if (n !== from) {
            w.__changedAt = performance.now();
            obs.disconnect();
          }
        });
        if (el) obs.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
      }, before);
      const sentAt = await page.evaluate(() => performance.now());
      await sandbox("/sandbox/incoming-wires", {
        accountNumber: dda,
        amount: 500 + i,
        originatorName: `BENCH LIVE ${i}`,
      });
      await page.waitForFunction(
        () => (window as unknown as { __changedAt?: number }).__changedAt !== undefined,
        null,
        {
          timeout: 30_000,
        },
      );
      const changedAt = await page.evaluate(() => (window as unknown as { __changedAt: number }).__changedAt);
      delays.push(changedAt - sentAt);
      await new Promise((r) => setTimeout(r, 300));
    }

    // The cost of the live count: the page stays open on /accounts, then is closed.
    const accountCount = accounts.accounts.length;
    await preparerContext.close();
    const watching = await paymentReadRate(bankUrl, WATCH_SECONDS);
    await page.goto("about:blank");
    await new Promise((r) => setTimeout(r, 2000));
    const idle = await paymentReadRate(bankUrl, WATCH_SECONDS);

    const load = `load average ${round(os.loadavg()[0])} on ${os.cpus().length} cores`;
    const results: BenchResult[] = [
      {
        name: `inbox_first_row_${waiting}_items_p50`,
        value: round(percentile(firstRows, 50)),
        unit: "ms",
        better: "lower",
        target: 1000,
        note: `navigation start to the first row of /approvals, ${waiting} items waiting (${DRAFTS} drafts, the rest incoming wires), ${LOADS} loads; ${load}`,
      },
      {
        name: `inbox_table_ready_${waiting}_items_p50`,
        value: round(percentile(allRows, 50)),
        unit: "ms",
        better: "lower",
        target: 1000,
        note: "navigation start to the table ready: every row in the DOM, or a virtualised table's rows in view with aria-rowcount the whole count",
      },
      {
        name: `inbox_rows_in_dom_${waiting}_items`,
        value: rowsInDom,
        unit: "rows",
        better: "lower",
        note: "rows in the DOM when the table was ready (the last load)",
      },
      {
        name: `inbox_table_ready_${waiting}_items_max`,
        value: round(Math.max(...allRows)),
        unit: "ms",
        better: "lower",
        target: 1000,
      },
      {
        name: "inbox_wire_at_bank_to_count_p50",
        value: round(percentile(delays, 50)),
        unit: "ms",
        better: "lower",
        target: 1000,
        note: `${ROUNDS} incoming wires posted to the bank's sandbox with /accounts open; from the call to the changed count in the navigation`,
      },
      {
        name: "inbox_wire_at_bank_to_count_max",
        value: round(Math.max(...delays)),
        unit: "ms",
        better: "lower",
        target: 1000,
      },
      {
        name: "inbox_watch_bank_payment_reads_per_s",
        value: round(watching),
        unit: "requests/s",
        better: "lower",
        note: `GET /v2/payment at the bank while one page listens on one dashboard instance, ${accountCount} accounts, over ${WATCH_SECONDS} s (one read per account per look, a look every 250 ms)`,
      },
      {
        name: "inbox_watch_bank_payment_reads_per_s_no_page",
        value: round(idle),
        unit: "requests/s",
        better: "lower",
        note: "the same with no page open: the watch has stopped",
      },
    ];
    console.log(`results in ${writeResults("inbox", results)}`);
    await context.close();
  } finally {
    await browser.close();
    await app.stop();
  }
}
