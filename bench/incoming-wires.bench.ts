// The approval queue in real Chromium against `npm start` (a production build), with 1,000
// incoming wires waiting: the first render of the queue (navigation start to the first row in the
// DOM, target under 1 s), each j/k step (key event to the painted frame that shows the moved
// focus, the wait for the display's frame left out, from when the loaded page is quiet; target
// under 16 ms), and Enter on an approval to its row leaving the queue (p99 of 20, target under
// 300 ms).
// The log names the slowest steps with where their time went, whether the rendered rows had just
// moved or a request was in flight, and what every process on the machine spent during the steps.
// Results are merged into bench/results/ui.json under their own names; other entries stay.
import fs from "node:fs";
import os from "node:os";
import type { Page } from "playwright-core";
import { launchChromium, signIn } from "../tests/helpers/browser.ts";
import { startDashboard } from "../tests/helpers/dashboard.ts";
import { demoBank } from "../tests/helpers/live.ts";
import { type BenchResult, mergeResults, percentile, round } from "./lib.ts";
import { postIncomingWires } from "./support/incoming-wires.ts";
import { printCpuSince, processCpu } from "./support/process-cpu.ts";

const PENDING = Number(process.env.BENCH_WIRES || 1000);
const LOADS = 5;
const STEPS = 200;
const DECISIONS = 20;
const PREFIX = "incoming_wires_";

/** Where one j/k step's time went: the key's handler, the work it queued, the frame, and scroll events. */
interface StepDetail {
  key: string;
  handler: number;
  queued: number;
  frame: number;
  frames: number;
  scrolls: number;
  /** Rows the rendered window added or removed since the step before (a chunk move). */
  moved: number;
  /** A request of the page's (the queue's poll) was in flight during the step. */
  request: boolean;
}

export async function run(): Promise<void> {
  const app = await startDashboard({ env: { BANK_SETTLE_AFTER_SECONDS: "86400" }, timeoutMs: 600_000 });
  const browser = await launchChromium();
  try {
    const { sandbox } = demoBank(app.dataDir);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    // tsx keeps function names with a __name helper that the page does not have.
    await context.addInitScript({ content: "window.__name = (f) => f;" });
    const page = await signIn(app, context, "approver", 120_000);
    const accounts = (await (await page.request.get(`${app.url}/api/accounts`)).json()) as {
      accounts: { accountNumber: string; type: string }[];
    };
    const dda = (accounts.accounts.find((a) => a.type === "DDA") ?? accounts.accounts[0]).accountNumber;

    // Fill the queue to PENDING wires, eight requests at a time.
    const existing = (await (await page.request.get(`${app.url}/api/incoming-wires`)).json()) as {
      wires: unknown[];
    };
    const missing = Math.max(0, PENDING - existing.wires.length);
    await postIncomingWires(sandbox, dda, missing);

    // The first row's time, from navigation start, recorded by the page itself.
    await context.addInitScript(() => {
      const w = window as unknown as { __firstRow?: number };
      new MutationObserver((_, obs) => {
        if (document.querySelector("tbody tr[data-row-index]")) {
          w.__firstRow = performance.now();
          obs.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const firstRenders: number[] = [];
    for (let i = 0; i < LOADS + 1; i++) {
      await page.goto(`${app.url}/incoming-wires`, { waitUntil: "commit" });
      await page.waitForSelector("tbody tr[data-row-index]", { timeout: 60_000 });
      const t = await page.evaluate(() => (window as unknown as { __firstRow?: number }).__firstRow ?? NaN);
      const rows = await page.evaluate(() => Number(document.title.match(/^\((\d+)\)/)?.[1] ?? 0));
      if (rows < PENDING) throw new Error(`the queue shows ${rows} wires, expected ${PENDING}`);
      // The first load warms the server's compiled routes; it is not counted.
      if (i > 0) firstRenders.push(t);
    }

    // j/k steps: from the key event to the end of the frame that shows the new focus. Each key is
    // sent between frames, as a key press arrives; the step ends after the next frame is painted
    // with the focus on the row below or above (scroll events and the rows they render belong to
    // that frame). The wait for the display's next frame is idle time and is left out.
    // The steps start once the page is quiet: its load (route prefetches, the live stream's
    // connection, the first poll) is over when idle periods have run their full length for a second.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          let quietSince = performance.now();
          const check = (idle: IdleDeadline) => {
            if (idle.timeRemaining() < 40) quietSince = performance.now();
            if (performance.now() - quietSince >= 1000) resolve();
            else requestIdleCallback(check);
          };
          requestIdleCallback(check);
        }),
    );
    // With BENCH_TRACE=<file> the steps run under a Chromium performance trace, each marked
    // "jk <index>" (bench/support/trace-steps.ts sums up where its time went). Tracing slows the
    // page: such a run's figures only compare with other traced runs.
    const tracing = process.env.BENCH_TRACE ? await startTrace(page) : null;
    const cpuBefore = processCpu();
    const stepsStart = performance.now();
    const measured = (await page.evaluate(
      async ({ n, marks }) => {
        const out: number[] = [];
        const detail: StepDetail[] = [];
        let misses = 0;
        let scrolls = 0;
        // Counting scroll events reads nothing from the layout.
        const onScroll = () => {
          scrolls++;
        };
        document.addEventListener("scroll", onScroll, { capture: true, passive: true });
        // Rows the window adds or removes, and the page's requests: both can land inside a step.
        let moved = 0;
        const rowsChanged = new MutationObserver((records) => {
          for (const r of records) moved += r.addedNodes.length + r.removedNodes.length;
        });
        const tbody = document.querySelector("tbody");
        if (tbody) rowsChanged.observe(tbody, { childList: true });
        const requests: [number, number][] = [];
        const requestsSeen = new PerformanceObserver((list) => {
          for (const e of list.getEntries() as PerformanceResourceTiming[])
            requests.push([e.startTime, e.responseEnd]);
        });
        requestsSeen.observe({ type: "resource" });
        const spans: [number, number][] = [];
        // One channel carries every hop to a new task: a channel per hop would be garbage the
        // page's collector then spends step time on.
        const channel = new MessageChannel();
        const waiting: (() => void)[] = [];
        channel.port1.onmessage = () => waiting.shift()?.();
        const tick = () =>
          new Promise<void>((resolve) => {
            waiting.push(resolve);
            channel.port2.postMessage(0);
          });
        const afterFrame = () =>
          new Promise<number>((resolve) =>
            requestAnimationFrame((frameStart) => {
              tick().then(() => resolve(frameStart));
            }),
          );
        const focusedIndex = () =>
          Number(document.activeElement?.getAttribute("data-row-index") ?? Number.NaN);
        const first = focusedIndex();
        let expected = Number.isNaN(first) ? 0 : first;
        for (let i = 0; i < n; i++) {
          await afterFrame();
          const key = Math.floor(i / 50) % 2 === 0 ? "j" : "k";
          scrolls = 0;
          const movedBefore = moved;
          moved = 0;
          if (marks) performance.mark(`jk ${i}`);
          const t0 = performance.now();
          document.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
          const handled = performance.now();
          expected = Math.max(0, expected + (key === "j" ? 1 : -1));
          const frame = afterFrame();
          // React's microtask and any task the key queued run before this one.
          await tick();
          const settled = performance.now();
          const idle = Math.max(0, (await frame) - settled);
          let frames = 1;
          for (; focusedIndex() !== expected && frames <= 10; frames++) await afterFrame();
          if (focusedIndex() !== expected) misses++;
          const end = performance.now();
          out.push(end - t0 - idle);
          spans.push([t0, end]);
          if (marks) performance.mark(`jk end ${i}`);
          detail.push({
            key,
            handler: handled - t0,
            queued: settled - handled,
            frame: end - settled - idle,
            frames,
            scrolls,
            moved: movedBefore,
            request: false,
          });
        }
        document.removeEventListener("scroll", onScroll, { capture: true });
        channel.port1.close();
        rowsChanged.disconnect();
        for (const e of requestsSeen.takeRecords() as PerformanceResourceTiming[])
          requests.push([e.startTime, e.responseEnd]);
        requestsSeen.disconnect();
        for (let i = 0; i < n; i++) {
          const [a, b] = spans[i];
          detail[i].request = requests.some(([start, end]) => start <= b && end >= a);
        }
        return { out, misses, detail };
      },
      { n: STEPS, marks: !!tracing },
    )) as {
      out: number[];
      misses: number;
      detail: StepDetail[];
    };
    // What every process on the machine spent while the steps ran: the page shares the cores.
    const busy = printCpuSince(cpuBefore, performance.now() - stepsStart, `the ${STEPS} j/k steps`);
    if (tracing)
      console.log(`trace of the j/k steps in ${await tracing.stop(process.env.BENCH_TRACE as string)}`);
    if (measured.misses)
      throw new Error(`${measured.misses} j/k steps did not move the focus to the next row`);
    const steps = measured.out;

    const slowest = steps
      .map((ms, i) => ({ i, ms: round(ms, 1) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5);
    console.log(`slowest j/k steps (index, ms): ${slowest.map((x) => `${x.i}:${x.ms}`).join(" ")}`);
    // Where each of them went: the key's handler, the work it queued before the frame, the frame itself
    // (its idle wait left out), how many frames until the focus showed, and scroll events.
    for (const { i } of slowest) {
      const d = measured.detail[i];
      console.log(
        `  step ${i} (${d.key}): handler ${round(d.handler, 1)} ms, queued ${round(d.queued, 1)} ms, frame ${round(d.frame, 1)} ms, ${d.frames} frame(s), ${d.scrolls} scroll event(s)${d.moved ? `, after the window moved ${d.moved} rows` : ""}${d.request ? ", a request in flight" : ""}`,
      );
    }

    // Enter on an approval to the row leaving the queue, measured in the page.
    const leaves: number[] = [];
    for (let i = 0; i < DECISIONS; i++) {
      await page.keyboard.press("k");
      // The row may need a frame to scroll into the rendered window before it takes focus.
      const id = (await (
        await page.waitForFunction(() => document.activeElement?.getAttribute("data-payment-id"), null, {
          timeout: 10_000,
        })
      ).jsonValue()) as string;
      await page.keyboard.press("a");
      await page.getByRole("dialog", { name: "Approve this incoming wire?" }).waitFor();
      await page.evaluate((paymentId) => {
        const w = window as unknown as { __leave?: number };
        w.__leave = undefined;
        let t0 = 0;
        document.addEventListener(
          "keydown",
          (e) => {
            if (e.key === "Enter") t0 = performance.now();
          },
          { capture: true, once: true },
        );
        const obs = new MutationObserver(() => {
          if (t0 && !document.querySelector(`tbody tr[data-row-index][data-payment-id="${paymentId}"]`)) {
            w.__leave = performance.now() - t0;
            obs.disconnect();
          }
        });
        obs.observe(document.body, { childList: true, subtree: true });
      }, id);
      await page.keyboard.press("Enter");
      await page.waitForFunction(
        () => (window as unknown as { __leave?: number }).__leave !== undefined,
        null,
        {
          timeout: 30_000,
        },
      );
      leaves.push(await page.evaluate(() => (window as unknown as { __leave: number }).__leave));
    }

    const results: BenchResult[] = [
      {
        name: `${PREFIX}first_render_${PENDING}_p50`,
        value: round(percentile(firstRenders, 50)),
        unit: "ms",
        better: "lower",
        target: 1000,
        note: `navigation start to the first row, ${PENDING} wires waiting, ${LOADS} loads`,
      },
      {
        name: `${PREFIX}first_render_${PENDING}_max`,
        value: round(Math.max(...firstRenders)),
        unit: "ms",
        better: "lower",
        target: 1000,
      },
      {
        name: `${PREFIX}jk_step_p50`,
        value: round(percentile(steps, 50), 2),
        unit: "ms",
        better: "lower",
        target: 16,
        note: `${STEPS} steps through ${PENDING} virtualised rows; load average ${round(os.loadavg()[0])} on ${os.cpus().length} cores, which were ${Math.round(busy * 100)} % busy during the steps`,
      },
      {
        name: `${PREFIX}jk_step_p99`,
        value: round(percentile(steps, 99), 2),
        unit: "ms",
        better: "lower",
        target: 16,
      },
      {
        name: `${PREFIX}enter_to_row_leaves_p50`,
        value: round(percentile(leaves, 50)),
        unit: "ms",
        better: "lower",
        note: `${DECISIONS} approvals, ${PENDING} wires waiting`,
      },
      {
        name: `${PREFIX}enter_to_row_leaves_p99`,
        value: round(percentile(leaves, 99)),
        unit: "ms",
        better: "lower",
        target: 300,
      },
    ];
    console.log(`results in ${mergeResults("ui", results, (name) => name.startsWith(PREFIX))}`);
    await context.close();
  } finally {
    await browser.close();
    await app.stop();
  }
}

/** Starts a Chromium performance trace of the page (main-thread work, rendering, GC, marks). */
async function startTrace(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Tracing.start", {
    transferMode: "ReturnAsStream",
    traceConfig: {
      includedCategories: [
        "devtools.timeline",
        "disabled-by-default-devtools.timeline",
        "disabled-by-default-devtools.timeline.frame",
        "blink.user_timing",
        "toplevel",
        "v8",
        "v8.execute",
        "blink",
        "cc",
        "gpu",
        "viz",
        "input",
        "loading",
      ],
    },
  });
  return {
    async stop(file: string): Promise<string> {
      const done = new Promise<string>((resolve) =>
        cdp.once("Tracing.tracingComplete", (e) => resolve(e.stream as string)),
      );
      await cdp.send("Tracing.end");
      const handle = await done;
      const chunks: Buffer[] = [];
      for (;;) {
        const r = await cdp.send("IO.read", { handle, size: 1 << 20 });
        chunks.push(Buffer.from(r.data, r.base64Encoded ? "base64" : "utf8"));
        if (r.eof) break;
      }
      await cdp.send("IO.close", { handle });
      await cdp.detach();
      fs.writeFileSync(file, Buffer.concat(chunks));
      return file;
    },
  };
}
