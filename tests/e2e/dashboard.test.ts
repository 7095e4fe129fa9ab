// The dashboard in real Chromium against the real bank and dashboard started by `npm start`:
// balances, history with filters, the detail panel, CSV export, the extended-history notice,
// keyboard use and the idle sign-out.
import fs from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addDays } from "../../lib/bank-api/dates.ts";
import { formatUsd } from "../../lib/bank-api/money.ts";
import type { AccountsResponse, HistoryItem, HistoryResponse } from "../../lib/dashboard-api/index.ts";
import { parseCsv } from "../../lib/format/csv.ts";
import { formatDay } from "../../lib/format/dates.ts";
import { historyToCsv } from "../../lib/format/history-csv.ts";
import { filterHistory } from "../../lib/history/filters.ts";
import { FIRST_WAIT, launchChromium, shot, signIn } from "../helpers/browser.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";
import { demoBank } from "../helpers/live.ts";

let app: RunningDashboard;
let browser: Browser;

beforeAll(async () => {
  app = await startDashboard({ env: { SESSION_IDLE_SECONDS: "20", SESSION_IDLE_WARNING_SECONDS: "10" } });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/**
 * Sessions end after 20 idle seconds in these tests: while a step waits on the server, the
 * "user" keeps moving the mouse, as a person watching the screen would.
 */
async function whileActive<T>(page: Page, work: Promise<T>): Promise<T> {
  let x = 5;
  const timer = setInterval(() => {
    x = x === 5 ? 9 : 5;
    void page.mouse.move(x, 5).catch(() => {});
    // Work in another tab does not count here: the warning may show, and they would answer it.
    const stay = page.getByRole("button", { name: "Stay signed in" });
    void stay
      .isVisible()
      .then((shown) => (shown ? stay.click({ timeout: 1000 }) : undefined))
      .catch(() => {});
  }, 2000);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}

/** The text of every rendered body row of the history table, cell by cell. */
function visibleRows(page: Page): Promise<string[][]> {
  return page
    .locator("tbody tr[data-row-index]")
    .evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll("td")).map((td) => td.innerText.trim())),
    );
}

/** "−$1,250.50" or "+$30.00" as the table shows it, to CSV's "-1250.50" / "30.00". */
function tableAmountToDecimal(text: string): string {
  const negative = text.startsWith("−") || text.startsWith("-");
  const digits = text.replace(/[^0-9.]/g, "");
  return `${negative ? "-" : ""}${digits}`;
}

async function countText(page: Page): Promise<string> {
  return (
    await page.getByText(/^(Showing [\d,]+ of [\d,]+ transactions|[\d,]+ transactions?)/).innerText()
  ).trim();
}

/** The demo's busy SEN account as the bank and the dashboard report it, around its busy day. */
interface Busy {
  accountNumber: string;
  name: string;
  /** The bank's business day. */
  today: string;
  /** Three days either side of the busy day. */
  range: { from: string; to: string };
  /** The dashboard API's answer for the range, newest first. */
  loaded: HistoryItem[];
}

/** The history table's body: the account page holds other tables too (the balance ahead). */
const historyBody = (page: Page) =>
  page.getByRole("table", { name: /Transactions between/ }).locator("tbody");

describe("dashboard in Chromium", () => {
  let context: BrowserContext;
  let viewer: Page | undefined;
  let busyOnce: Promise<Busy> | undefined;

  /** The viewer's tab, signed in once; a later test signs in again if an earlier one ended it. */
  async function viewerTab(): Promise<Page> {
    if (viewer && !viewer.isClosed() && !new URL(viewer.url()).pathname.startsWith("/sign-in")) return viewer;
    viewer = await signIn(app, context, "viewer");
    return viewer;
  }

  async function accounts(p: Page): Promise<AccountsResponse> {
    const res = await whileActive(p, p.request.get(`${app.url}/api/accounts`));
    expect(res.status()).toBe(200);
    return (await res.json()) as AccountsResponse;
  }

  /**
   * Asks the bank which day the demo made busy and what its today is, then the dashboard for that
   * range of each SEN account: the one read day by day is the busy account. Found once, by the
   * first test that needs it, whichever runs.
   */
  function busy(): Promise<Busy> {
    busyOnce ??= (async () => {
      const p = await viewerTab();
      const bank = demoBank(app.dataDir);
      const demo = await bank.sandboxGet<{ busyDay: string }>("/sandbox/demo");
      const today = await bank.today();
      const range = { from: addDays(demo.busyDay, -3), to: addDays(demo.busyDay, 3) };
      expect(range.to < today).toBe(true);
      for (const a of (await accounts(p)).accounts.filter((x) => x.type === "SEN")) {
        const res = await whileActive(
          p,
          p.request.get(
            `${app.url}/api/accounts/${a.accountNumber}/history?from=${range.from}&to=${range.to}&order=D`,
          ),
        );
        const history = (await res.json()) as HistoryResponse;
        if (history.source === "extendedhistory")
          return { accountNumber: a.accountNumber, name: a.name, today, range, loaded: history.items };
      }
      throw new Error(`no SEN account needed the day-by-day read for the busy day ${demo.busyDay}`);
    })().catch((e) => {
      busyOnce = undefined;
      throw e;
    });
    return busyOnce;
  }

  /** The viewer's tab on the busy account's history for its range, with the given filters in the address. */
  async function onBusyHistory(filters: Record<string, string> = {}): Promise<{ page: Page; busy: Busy }> {
    const b = await busy();
    const p = await viewerTab();
    const query = new URLSearchParams({ from: b.range.from, to: b.range.to, order: "D", ...filters });
    await p.goto(`${app.url}/accounts/${b.accountNumber}?${query}`);
    await whileActive(
      p,
      p.getByText(/^(Showing [\d,]+ of [\d,]+|[\d,]+) transactions$/).waitFor({ timeout: FIRST_WAIT }),
    );
    return { page: p, busy: b };
  }

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true });
  });
  afterAll(async () => {
    await context?.close();
  });
  // A failed step leaves a picture of what the browser showed.
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(async () => {
      if (viewer && !viewer.isClosed())
        await shot(viewer, `failed-${task.name.slice(0, 40).replace(/\W+/g, "-")}`, false);
    });
  });

  it("signs in as the viewer and shows every account's balances as the API reports them", async () => {
    const page = await signIn(app, context, "viewer");
    viewer = page;
    await page.getByRole("heading", { name: "Accounts and balances" }).waitFor();
    await whileActive(
      page,
      page.getByRole("heading", { name: /All accounts/ }).waitFor({ timeout: FIRST_WAIT }),
    );

    const all = await accounts(page);
    expect(all.accounts.filter((a) => a.type === "DDA")).toHaveLength(1);
    expect(all.accounts.filter((a) => a.type === "SEN")).toHaveLength(2);

    for (const a of all.accounts) {
      const card = page.getByRole("article", { name: a.name, exact: true });
      // The full number shows only on request.
      expect(await card.innerText()).not.toContain(a.accountNumber);
      await card.getByRole("button", { name: /Show full account number/ }).click();
      const text = await card.innerText();
      expect(text).toContain(formatUsd(a.availableCents));
      expect(text).toContain(formatUsd(a.currentCents));
      expect(text).toContain(formatUsd(a.holdsCents));
      expect(text).toContain(a.accountNumber);
      expect(text).toContain(a.status);
      expect(text).toContain(a.type === "SEN" ? "SEN network" : "DDA");
    }
    const totals = await page.getByRole("region", { name: /All accounts/ }).innerText();
    expect(totals).toContain(formatUsd(all.totals.availableCents));
    expect(totals).toContain(formatUsd(all.totals.currentCents));
    // A viewer has no user management.
    expect(
      await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: "Administration" })
        .count(),
    ).toBe(0);
    await shot(page, "accounts");
  });

  it("shows a new balance without a reload when the bank reports a change (live balances)", async () => {
    const page = await viewerTab();
    // A tab of its own, so the other steps find the page as they left it whatever happens here;
    // meanwhile the user stays active on the first tab, so its idle warning does not open.
    const live = await context.newPage();
    let x = 5;
    const keepFirstTabActive = setInterval(() => {
      x = x === 5 ? 9 : 5;
      void page.mouse.move(x, 5).catch(() => {});
    }, 2000);
    try {
      await live.goto(`${app.url}/accounts`);
      await whileActive(live, live.getByText("Live", { exact: true }).waitFor({ timeout: FIRST_WAIT }));
      const bank = demoBank(app.dataDir);
      const deposit = (accountNumber: string, amount: number, description: string) =>
        expect(bank.deposit(accountNumber, amount, description)).resolves.toBeUndefined();
      const target = (await accounts(page)).accounts.find(
        (a) => a.type === "SEN",
      ) as AccountsResponse["accounts"][number];
      const card = live.getByRole("article", { name: target.name, exact: true });
      await whileActive(
        live,
        expect
          .poll(() => card.innerText(), { timeout: FIRST_WAIT })
          .toContain(formatUsd(target.availableCents)),
      );
      await deposit(target.accountNumber, 1234.56, "LIVE CARD");
      const expected = formatUsd(target.availableCents + 123_456);
      await whileActive(
        live,
        expect.poll(() => card.innerText(), { timeout: 20_000, interval: 250 }).toContain(expected),
      );
      await shot(live, "accounts-live");

      // On the account's page, a new transaction appears as a row of the history.
      await live.goto(`${app.url}/accounts/${target.accountNumber}`);
      const rows = () => historyBody(live).innerText();
      await whileActive(live, expect.poll(rows, { timeout: FIRST_WAIT }).toContain("LIVE CARD"));
      expect(await rows()).not.toContain("LIVE ROW");
      await deposit(target.accountNumber, 777.77, "LIVE ROW");
      await whileActive(live, expect.poll(rows, { timeout: 20_000, interval: 250 }).toContain("LIVE ROW"));
      await shot(live, "account-live", false);
    } finally {
      clearInterval(keepFirstTabActive);
      await live.close();
    }
  });

  it("opens the busy SEN account and shows the extended-history notice for a range with the busy day", async () => {
    const page = await viewerTab();
    const { accountNumber: senAccount, name, today, range, loaded } = await busy();
    expect(loaded.length).toBeGreaterThan(520);

    await page.goto(`${app.url}/accounts`);
    await whileActive(page, page.getByRole("link", { name, exact: true }).click({ timeout: FIRST_WAIT }));
    // The busy account's page may take a while to answer on a loaded machine: the user waits on it.
    await whileActive(page, page.waitForURL(new RegExp(`/accounts/${senAccount}`), { timeout: FIRST_WAIT }));
    await whileActive(
      page,
      page.getByRole("heading", { level: 1, name, exact: true }).waitFor({ timeout: FIRST_WAIT }),
    );
    await expect.poll(() => new URL(page.url()).searchParams.get("to")).toBe(today);
    await page.getByLabel("From").fill(range.from);
    await page.getByLabel("To", { exact: true }).fill(range.to);
    await page.getByRole("button", { name: "Show transactions" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("from")).toBe(range.from);

    const notice = page.getByRole("status").filter({ hasText: /day by day/ });
    await whileActive(page, notice.waitFor({ timeout: FIRST_WAIT }));
    await whileActive(page, page.getByText(/^[\d,]+ transactions$/).waitFor({ timeout: FIRST_WAIT }));

    expect(await countText(page)).toBe(`${loaded.length.toLocaleString("en-US")} transactions`);

    // Virtualised: hundreds of transactions, only the visible rows in the DOM.
    const rendered = await page.locator("tbody tr[data-row-index]").count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(80);
    const table = page.getByRole("table", { name: /Transactions between/ });
    expect(await table.getAttribute("aria-rowcount")).toBe(String(loaded.length + 1));

    // The first rows on screen are the first items the API returned, in order.
    const rows = await visibleRows(page);
    for (let i = 0; i < 5; i++) {
      expect(rows[i][0]).toBe(formatDay(loaded[i].date));
      expect(rows[i][1]).toContain(loaded[i].description);
      expect(tableAmountToDecimal(rows[i][3])).toBe(
        (loaded[i].direction === "debit" ? "-" : "") + (Math.abs(loaded[i].amountCents) / 100).toFixed(2),
      );
    }
    await shot(page, "account");
  });

  it("reads any day's closing balance on the trend, by keyboard and by pointer", async () => {
    const {
      page,
      busy: { loaded, range },
    } = await onBusyHistory();
    // Each day closes at the balance after its latest transaction; a day without one keeps the
    // day before's, and the days before the first transaction the balance before it.
    const closing = new Map<string, number>();
    for (const item of loaded) if (!closing.has(item.date)) closing.set(item.date, item.availableAfterCents);
    const oldest = loaded[loaded.length - 1];
    let carried =
      oldest.availableAfterCents - (oldest.direction === "credit" ? 1 : -1) * Math.abs(oldest.amountCents);
    const days: string[] = [];
    for (let d = range.from; d <= range.to; d = addDays(d, 1)) days.push(d);
    const daily = days.map((d) => {
      carried = closing.get(d) ?? carried;
      return carried;
    });
    const busiest = [...closing.keys()].reduce((a, b) =>
      loaded.filter((i) => i.date === b).length > loaded.filter((i) => i.date === a).length ? b : a,
    );
    const at = days.indexOf(busiest);
    expect(at).toBeGreaterThan(0);

    const trend = page.getByRole("region", { name: "Balance trend" });
    expect(await trend.getByText(`High ${formatUsd(Math.max(...daily))}`).count()).toBe(1);
    expect(await trend.getByText(`Low ${formatUsd(Math.min(...daily))}`).count()).toBe(1);
    const readout = trend.getByTestId("trend-readout");
    const said = (i: number) => `${formatDay(days[i])}: ${formatUsd(daily[i])}`;

    // Keyboard: Tab reaches the days; Home, the arrow keys and End step through them.
    const slider = trend.getByRole("slider", { name: "Day on the balance trend" });
    await slider.focus();
    await page.keyboard.press("Home");
    expect(await slider.getAttribute("aria-valuetext")).toBe(said(0));
    for (let i = 0; i < at; i++) await page.keyboard.press("ArrowRight");
    expect(await slider.getAttribute("aria-valuetext")).toBe(said(at));
    expect(await readout.innerText()).toContain(formatUsd(daily[at]));
    await page.keyboard.press("End");
    expect(await slider.getAttribute("aria-valuetext")).toBe(said(days.length - 1));
    // The keys are written under the chart while it has keyboard focus.
    const keys = trend.getByText("← → a day · Home, End the first, the last");
    expect(await keys.isVisible()).toBe(true);
    await shot(page, "account-trend-keyboard", false);

    // Pointer: the day under it, and the last day again once it leaves.
    await slider.blur();
    expect(await keys.isVisible()).toBe(false);
    const plot = await trend.getByRole("img").boundingBox();
    if (!plot) throw new Error("the trend has no plot");
    await page.mouse.move(plot.x + (plot.width * at) / (days.length - 1), plot.y + plot.height / 2);
    await expect.poll(() => readout.innerText()).toContain(formatDay(days[at]));
    expect(await readout.innerText()).toContain(formatUsd(daily[at]));
    await page.mouse.move(plot.x + plot.width / 2, plot.y - 40);
    await expect.poll(() => readout.innerText()).toContain(formatDay(days[days.length - 1]));
  });

  it("names every control, captions the table, keeps headings in order and has the landmarks", async () => {
    const { page } = await onBusyHistory();
    const problems = await page.evaluate(() => {
      const found: string[] = [];
      const nameOf = (el: Element) => {
        const labelled = el.getAttribute("aria-labelledby");
        if (labelled)
          return labelled
            .split(/\s+/)
            .map((id) => document.getElementById(id)?.textContent ?? "")
            .join(" ")
            .trim();
        const aria = el.getAttribute("aria-label");
        if (aria) return aria.trim();
        const labels = (el as HTMLInputElement).labels;
        if (labels?.length)
          return Array.from(labels, (l) => l.textContent ?? "")
            .join(" ")
            .trim();
        return (el.textContent ?? "").trim();
      };
      for (const el of document.querySelectorAll(
        "main input, main select, main button, main a, main [tabindex='0']",
      ))
        if (!nameOf(el)) found.push(`unnamed ${el.outerHTML.slice(0, 80)}`);
      for (const t of document.querySelectorAll("table"))
        if (!t.querySelector("caption")?.textContent?.trim()) found.push("table without caption");
      let last = 0;
      for (const h of document.querySelectorAll("main h1, main h2, main h3, main h4")) {
        const level = Number(h.tagName[1]);
        if (level > last + 1) found.push(`heading ${h.tagName} "${h.textContent}" skips a level`);
        last = level;
      }
      if (document.querySelectorAll("main h1").length !== 1) found.push("not exactly one h1");
      for (const sel of ["header", "nav", "main", "footer"])
        if (!document.querySelector(sel)) found.push(`no ${sel}`);
      if (!document.querySelector('a[href="#main"]')) found.push("no skip link");
      return found;
    });
    expect(problems).toEqual([]);
  });

  it("filters history by text and by debit or credit, keeps the filters in the URL and after a reload", async () => {
    const {
      page,
      busy: { loaded, range },
    } = await onBusyHistory();
    const withMemo = loaded.find((i) => i.sen?.memo) ?? loaded[0];
    const term = withMemo.sen?.memo || withMemo.description;
    const none = { q: "", dir: "all", min: "", max: "" } as const;

    await page.getByLabel("Search").fill(term);
    const byText = filterHistory(loaded, { ...none, q: term });
    expect(byText.length).toBeLessThan(loaded.length);
    await expect
      .poll(() => countText(page))
      .toBe(
        `Showing ${byText.length.toLocaleString("en-US")} of ${loaded.length.toLocaleString("en-US")} transactions`,
      );
    const textRows = await visibleRows(page);
    expect(textRows[0][1].toLowerCase()).toContain(term.toLowerCase().split(/\s+/)[0]);
    expect(new URL(page.url()).searchParams.get("q")).toBe(term);

    await page.getByLabel("Search").fill("");
    await page.getByLabel("Direction").selectOption("debit");
    const debits = filterHistory(loaded, { ...none, dir: "debit" });
    expect(debits.length).toBeGreaterThan(0);
    expect(debits.length).toBeLessThan(loaded.length);
    await expect
      .poll(() => countText(page))
      .toBe(
        `Showing ${debits.length.toLocaleString("en-US")} of ${loaded.length.toLocaleString("en-US")} transactions`,
      );
    const debitRows = await visibleRows(page);
    expect(debitRows.length).toBeGreaterThan(0);
    for (const r of debitRows) expect(r[2]).toBe("Debit");
    expect(new URL(page.url()).searchParams.get("dir")).toBe("debit");

    // A shared or reloaded link shows the same filtered view.
    await page.reload();
    await whileActive(page, page.getByText(/^Showing/).waitFor({ timeout: FIRST_WAIT }));
    expect(await page.getByLabel("Direction").inputValue()).toBe("debit");
    expect(await page.getByLabel("From").inputValue()).toBe(range.from);
    expect(await countText(page)).toContain(`Showing ${debits.length.toLocaleString("en-US")} of`);
    await shot(page, "account-filtered", false);
  });

  it("opens the detail panel of a row with every field, and Escape closes it and returns focus", async () => {
    const {
      page,
      busy: { loaded },
    } = await onBusyHistory({ dir: "debit" });
    const debits = filterHistory(loaded, { q: "", dir: "debit", min: "", max: "" });
    const first = debits[0];
    await page.locator('tbody tr[data-row-index="0"]').click();
    const dialog = page.getByRole("dialog", { name: "Transaction details" });
    await dialog.waitFor();
    const text = await dialog.innerText();
    for (const line of first.descriptions) expect(text).toContain(line);
    expect(text).toContain(first.uniqueId);
    if (first.sen) {
      expect(text.toLowerCase()).toContain("sen counterparty");
      expect(text).toContain(first.sen.counterpartyAccount);
      expect(text).toContain(first.sen.counterpartyName);
      if (first.sen.memo) expect(text).toContain(first.sen.memo);
    }
    if (first.idempotencyKey) expect(text).toContain(first.idempotencyKey);
    if (first.paymentId) expect(text).toContain(first.paymentId);
    expect(text).toContain("Debit");
    // Let the slide-in finish before the picture.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
    await shot(page, "transaction-detail", false);

    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-row-index")))
      .toBe("0");
  });

  it("exports exactly the rows the filters show as CSV", async () => {
    const {
      page,
      busy: { loaded, range, accountNumber: senAccount },
    } = await onBusyHistory({ dir: "debit" });
    const shown = filterHistory(loaded, { q: "", dir: "debit", min: "", max: "" });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: /Export CSV/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(
      `transactions-${senAccount}-${range.from}-to-${range.to}-filtered.csv`,
    );
    const file = await download.path();
    const csv = fs.readFileSync(file, "utf8").replace(/^\uFEFF/, "");
    const rows = parseCsv(csv);
    expect(rows.length - 1).toBe(shown.length);
    expect(csv).toBe(historyToCsv(shown));

    // A sample against what the table itself shows.
    const table = await visibleRows(page);
    const header = rows[0];
    const col = (name: string) => header.indexOf(name);
    for (let i = 0; i < Math.min(5, table.length); i++) {
      const r = rows[i + 1];
      expect(formatDay(r[col("Date")])).toBe(table[i][0]);
      expect(table[i][1]).toContain(r[col("Description")]);
      expect(r[col("Debit/Credit")]).toBe(table[i][2]);
      expect(r[col("Amount")]).toBe(tableAmountToDecimal(table[i][3]));
      expect(r[col("Balance after")]).toBe(tableAmountToDecimal(table[i][4]));
    }
  });

  it("reaches a row with Tab, moves with the arrow keys and opens it with Enter", async () => {
    const { page } = await onBusyHistory({ dir: "debit" });
    await page.getByLabel("Maximum amount ($)").focus();
    let onRow = false;
    for (let i = 0; i < 6 && !onRow; i++) {
      await page.keyboard.press("Tab");
      onRow = (await page.evaluate(() => document.activeElement?.getAttribute("data-row-index"))) !== null;
    }
    expect(onRow).toBe(true);
    await page.keyboard.press("ArrowDown");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-row-index")))
      .toBe("1");
    await shot(page, "keyboard-row-focus", false);
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Transaction details" });
    await dialog.waitFor();
    // Focus is inside the panel and Tab stays there.
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press("Tab");
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-row-index")))
      .toBe("1");
  });

  it("says so in words when a range has no transactions", async () => {
    const {
      page,
      busy: { today },
    } = await onBusyHistory();
    const empty = { from: addDays(today, -200), to: addDays(today, -190) };
    await page.getByLabel("From").fill(empty.from);
    await page.getByLabel("To", { exact: true }).fill(empty.to);
    await page.getByRole("button", { name: "Show transactions" }).click();
    await whileActive(
      page,
      page
        .getByText(`No transactions between ${formatDay(empty.from)} and ${formatDay(empty.to)}.`)
        .waitFor({ timeout: FIRST_WAIT }),
    );
    expect(await page.locator("tbody tr[data-row-index]").count()).toBe(0);
    expect(await page.getByRole("button", { name: /Export CSV/ }).isDisabled()).toBe(true);
    await shot(page, "account-empty", false);
  });

  it("stays smooth with 5,000 rows: only the visible rows are in the DOM", async () => {
    // No demo range holds 5,000 transactions, so this one answer is made up at the network edge.
    const { loaded, today, accountNumber: senAccount } = await busy();
    const page = await viewerTab();
    const big = { from: addDays(today, -60), to: addDays(today, -31) };
    const items: HistoryItem[] = Array.from({ length: 5000 }, (_, i) => ({
      ...loaded[i % loaded.length],
      id: `synthetic-${i}`,
      date: addDays(big.to, -Math.floor(i / 180)),
      description: `SYNTHETIC ${i}`,
      descriptions: [`SYNTHETIC ${i}`],
      availableAfterCents: 1_000_000 + i,
    }));
    const body: HistoryResponse = {
      accountNumber: senAccount,
      ...big,
      order: "D",
      items,
      source: "extendedhistory",
      truncatedDays: [],
      notice: "More than 520 transactions in this range: loaded day by day.",
    };
    const pattern = `**/api/accounts/${senAccount}/history?from=${big.from}*`;
    await page.route(pattern, (route) => route.fulfill({ json: body }));
    try {
      await page.goto(`${app.url}/accounts/${senAccount}?from=${big.from}&to=${big.to}&order=D`);
      await whileActive(
        page,
        page.getByText("5,000 transactions", { exact: true }).waitFor({ timeout: FIRST_WAIT }),
      );
      expect(await page.locator("tbody tr[data-row-index]").count()).toBeLessThan(80);

      // Scroll through the whole list in big steps; each step paints the rows of its new
      // position (the first row shown moves on), never the whole list.
      const firstShown = await historyBody(page).evaluate(async (tbody) => {
        const box = tbody.closest("table")?.parentElement as HTMLElement;
        const first = () =>
          Number(tbody.querySelector("tr[data-row-index]")?.getAttribute("aria-rowindex") ?? 0);
        const step = box.scrollHeight / 40;
        const seen = [first()];
        // Whole steps only: a last, shorter one might not move the first row past the overscan.
        while (seen.length <= 40 && box.scrollTop + box.clientHeight + step <= box.scrollHeight) {
          const before = first();
          box.scrollTop += step;
          // Frames, not milliseconds: a busy machine paints later, not differently.
          for (let f = 0; f < 600 && first() === before; f++)
            await new Promise((r) => requestAnimationFrame(() => r(undefined)));
          seen.push(first());
        }
        return seen;
      });
      expect(firstShown.length).toBeGreaterThan(20);
      for (let i = 1; i < firstShown.length; i++) expect(firstShown[i]).toBeGreaterThan(firstShown[i - 1]);
      expect(await page.locator("tbody tr[data-row-index]").count()).toBeLessThan(80);

      // The keyboard reaches the last row.
      await page.locator("tbody tr[data-row-index]").first().focus();
      await page.keyboard.press("End");
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-rowindex")))
        .toBe("5001");
      expect(await page.evaluate(() => (document.activeElement as HTMLElement).innerText)).toContain(
        "SYNTHETIC 4999",
      );
      await shot(page, "account-5000-rows", false);
    } finally {
      await page.unroute(pattern);
    }
  });

  it("says in words when the bank is unavailable, and loads the rows on Try again", async () => {
    const { today, accountNumber: senAccount } = await busy();
    const page = await viewerTab();
    const r = { from: addDays(today, -45), to: addDays(today, -40) };
    const pattern = `**/api/accounts/${senAccount}/history?from=${r.from}*`;
    // The outage is made at the network edge; the retry goes to the real dashboard API.
    await page.route(pattern, (route) =>
      route.fulfill({
        status: 503,
        json: { error: { code: "bank_unavailable", message: "The bank is not answering right now." } },
      }),
    );
    await page.goto(`${app.url}/accounts/${senAccount}?from=${r.from}&to=${r.to}&order=D`);
    const alert = page.getByRole("alert").filter({ hasText: "Transactions could not be loaded" });
    await whileActive(page, alert.waitFor({ timeout: FIRST_WAIT }));
    expect(await alert.innerText()).toContain("The bank is not answering right now.");
    await shot(page, "account-error", false);
    await page.unroute(pattern);
    // Under load the screenshot and the unroute can outlast the warning's ten seconds: the click
    // is a step like any other, with the user still there.
    await whileActive(page, alert.getByRole("button", { name: "Try again" }).click({ timeout: FIRST_WAIT }));
    await whileActive(page, page.getByText(/^[\d,]+ transactions?$/).waitFor({ timeout: FIRST_WAIT }));
    expect(await page.locator("tbody tr[data-row-index]").count()).toBeGreaterThan(0);
  });

  it("shows Admin in the navigation only to a role that manages users", async () => {
    const adminContext = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    try {
      const admin = await signIn(app, adminContext, "admin");
      const nav = admin.getByRole("navigation", { name: "Main" });
      await nav.getByRole("link", { name: "Administration" }).waitFor({ timeout: FIRST_WAIT });
      expect(await nav.getByRole("link", { name: "Accounts" }).getAttribute("aria-current")).toBe("page");
      expect(await admin.getByRole("banner").innerText()).toContain("Administrator");
    } finally {
      await adminContext.close();
    }
  });

  it("warns an idle user, then signs them out to the sign-in page", async () => {
    const page = await viewerTab();
    await page.goto(`${app.url}/accounts`);
    const warning = page.getByRole("alertdialog", { name: "Your session is about to end" });
    await warning.waitFor({ timeout: 40_000 });
    await shot(page, "idle-warning", false);
    await page.waitForURL(/\/sign-in/, { timeout: 40_000 });
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await shot(page, "sign-in", false);
    // The session really ended: the API refuses it.
    expect((await page.request.get(`${app.url}/api/accounts`)).status()).toBe(401);
  });
});
