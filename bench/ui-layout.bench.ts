// Layout shift and largest paint of the accounts, account and audit pages, as the browser itself
// reports them (PerformanceObserver: layout-shift, largest-contentful-paint), signed in, at a
// desktop size, against `npm start`. Targets: CLS under 0.1, largest paint under 1 s. Other
// benchmarks write bench/results/ui.json too: this one replaces its own entries only.
import type { Page } from "playwright-core";
import { launchChromium, signIn } from "../tests/helpers/browser.ts";
import { startDashboard } from "../tests/helpers/dashboard.ts";
import { type BenchResult, mergeResults, percentile, round } from "./lib.ts";

const DIST = process.env.NEXT_DIST_DIR || ".next-bench";
const LOADS = Number(process.env.BENCH_UI_LOADS || 5);

// Installed before any page script: every shift and paint is kept from the first one on.
const OBSERVE = `
  window.__vitals = { cls: 0, lcp: 0, shifts: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      window.__vitals.cls += e.value;
      window.__vitals.shifts.push({ value: e.value, sources: (e.sources || []).map((s) => s.node ? (s.node.nodeName + "." + (s.node.className && s.node.className.baseVal === undefined ? String(s.node.className).slice(0, 60) : "")) : "?") });
    }
  }).observe({ type: "layout-shift", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__vitals.lcp = e.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
`;

export async function run(): Promise<void> {
  const stack = await startDashboard({ env: { NEXT_DIST_DIR: DIST }, via: "node", timeoutMs: 900_000 });
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1350, height: 940 } });
    const first = await signIn(stack, context, "admin", 120_000);
    const accounts = (await (await first.request.get(`${stack.url}/api/accounts`)).json()) as {
      accounts: { accountNumber: string }[];
    };
    await first.close();
    const n = accounts.accounts[0].accountNumber;
    await context.addInitScript(OBSERVE);

    const pages: { name: string; path: string; ready: (p: Page) => Promise<unknown> }[] = [
      {
        name: "accounts",
        path: "/accounts",
        ready: (p) => p.getByRole("heading", { name: /All accounts/ }).waitFor(),
      },
      {
        name: "account",
        path: `/accounts/${n}`,
        ready: (p) =>
          p
            .getByText(/^[\d,]+ transactions?$|^No transactions/)
            .first()
            .waitFor({ timeout: 120_000 }),
      },
      { name: "audit", path: "/admin/audit", ready: (p) => p.getByRole("table").waitFor() },
    ];
    const results: BenchResult[] = [];
    for (const target of pages) {
      const cls: number[] = [];
      const lcp: number[] = [];
      // One load to warm the server's caches, not counted.
      for (let i = 0; i <= LOADS; i++) {
        const page = await context.newPage();
        await page.goto(`${stack.url}${target.path}`);
        await target.ready(page);
        await page.waitForTimeout(1500);
        const v = (await page.evaluate("window.__vitals")) as {
          cls: number;
          lcp: number;
          shifts: { value: number; sources: string[] }[];
        };
        if (i > 0) {
          cls.push(v.cls);
          lcp.push(v.lcp);
        }
        if (v.cls > 0.05) console.log(`${target.name}: shifts ${JSON.stringify(v.shifts)}`);
        await page.close();
      }
      results.push(
        {
          name: `cls_${target.name}`,
          value: round(Math.max(...cls), 3),
          unit: "score",
          better: "lower",
          target: 0.1,
          note: `largest cumulative layout shift of ${LOADS} loads, signed in, 1350x940`,
        },
        {
          name: `lcp_${target.name}`,
          value: round(percentile(lcp, 50), 0),
          unit: "ms",
          better: "lower",
          target: 1000,
          note: `median largest contentful paint of ${LOADS} loads`,
        },
      );
    }
    mergeResults("ui", results);
  } finally {
    await browser.close();
    await stack.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
