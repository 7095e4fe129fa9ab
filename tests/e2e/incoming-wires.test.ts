// The incoming-wire queue in real Chromium against the bank and dashboard `npm start` starts:
// wires, outages and settlement made through the bank's /sandbox, decisions made with the keys
// alone, every outcome read back from the dashboard's API and the pages that show it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatUsd } from "../../lib/bank-api/money.ts";
import type {
  AccountsResponse,
  AuditResponse,
  HistoryResponse,
  IncomingWiresResponse,
  WireSummariesResponse,
} from "../../lib/dashboard-api/index.ts";
import { parseCsv } from "../../lib/format/csv.ts";
import { sandboxCustomer, startTestBank, type TestBank, sandbox as testSandbox } from "../helpers/bank.ts";
import {
  FIRST_WAIT,
  seriousAxeViolations,
  shot,
  sidewaysOverflow,
  signIn as signInAs,
  unclaimedRowWidth,
} from "../helpers/browser.ts";
import { browserWorld } from "../helpers/browser-world.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";
import { freePort } from "../helpers/ports.ts";

// Wires settle when the test says so (POST /sandbox/settle), so each state can be seen.
const world = browserWorld({ env: { BANK_SETTLE_AFTER_SECONDS: "86400" } });
let dda: string;

let serial = 0;
/** An incoming wire whose originator name no other row can hold. */
async function incomingWire(amount: number) {
  const originatorName = `E2E ORIG ${++serial} ${Date.now().toString(36).toUpperCase()}`;
  const r = await world.demo.sandbox<{ payment_id: string }>("/sandbox/incoming-wires", {
    accountNumber: dda,
    amount,
    originatorName,
    originatorToBeneficiaryInfo: `E2E INVOICE ${serial}`,
  });
  return { id: r.payment_id, originatorName, amount };
}

const signIn = (context: BrowserContext, role: string): Promise<Page> => signInAs(world.app, context, role);

const api = world.api;

const queue = (page: Page) => api<IncomingWiresResponse>(page, "/api/incoming-wires");
const row = (page: Page, id: string) => page.locator(`tbody tr[data-row-index][data-payment-id="${id}"]`);

/** Opens the queue and moves to the wire with j alone; the focused row is the wire's. */
async function focusWire(page: Page, id: string) {
  if (!page.url().endsWith("/incoming-wires")) await page.goto(`${world.app.url}/incoming-wires`);
  await row(page, id).waitFor({ timeout: FIRST_WAIT });
  const index = Number(await row(page, id).getAttribute("data-row-index"));
  const current = page.locator('tbody tr[aria-current="true"]');
  const from = (await current.count()) ? Number(await current.getAttribute("data-row-index")) : 0;
  // The first key focuses the active row's neighbour, so step away and back when already on it.
  if (index === from) await page.keyboard.press(index > 0 ? "k" : "j");
  const start = Number(await current.getAttribute("data-row-index"));
  const key = index > start ? "j" : "k";
  for (let i = 0; i < Math.abs(index - start); i++) await page.keyboard.press(key);
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-payment-id")))
    .toBe(id);
}

async function axe(page: Page, where: string) {
  expect(await seriousAxeViolations(page), where).toEqual([]);
}

describe("incoming-wire queue in Chromium", () => {
  let approverContext: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    approverContext = await world.browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await signIn(approverContext, "approver");
    const accounts = await api<AccountsResponse>(page, "/api/accounts");
    dda = (accounts.accounts.find((a) => a.type === "DDA") ?? accounts.accounts[0]).accountNumber;
  });
  afterAll(async () => {
    await approverContext?.close();
  });

  it("approves a wire by keyboard alone; after settlement its credit is in the balance card and the history", async () => {
    const w = await incomingWire(4_321.09);
    const before = (await api<AccountsResponse>(page, "/api/accounts")).accounts.find(
      (a) => a.accountNumber === dda,
    );
    await page.goto(`${world.app.url}/incoming-wires`);
    await expect.poll(() => page.title(), { timeout: FIRST_WAIT }).toMatch(/^\(\d+\) Incoming wires/);
    await focusWire(page, w.id);
    await axe(page, "queue");
    await shot(page, "incoming-wires-1440");

    // The help overlay lists the keys; Escape closes it.
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect.poll(() => help.isVisible()).toBe(true);
    await axe(page, "shortcuts dialog");
    await page.keyboard.press("Escape");
    await expect.poll(() => help.isVisible()).toBe(false);

    // "a" asks; Escape backs out and nothing is decided.
    await page.keyboard.press("a");
    const dialog = page.getByRole("dialog", { name: "Approve this incoming wire?" });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const text = await dialog.innerText();
    expect(text).toContain(formatUsd(432_109));
    expect(text).toContain(w.originatorName);
    await axe(page, "approve dialog");
    await shot(page, "incoming-wires-dialog-1440");
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect((await queue(page)).wires.find((x) => x.paymentId === w.id)?.state).toBe("pending");

    // "a" then Enter decides it; the row leaves and Decided today names who.
    await focusWire(page, w.id);
    await page.keyboard.press("a");
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await page.keyboard.press("Enter");
    await expect.poll(() => row(page, w.id).count(), { timeout: 20_000 }).toBe(0);
    const decided = page.locator(`tr[data-payment-id="${w.id}"]`);
    await expect.poll(() => decided.innerText(), { timeout: 20_000 }).toContain("approver@");
    expect((await queue(page)).decidedToday.find((d) => d.paymentId === w.id)?.bankStatus).toBe(
      "In-Progress",
    );

    await world.demo.sandbox("/sandbox/settle", {});
    await expect
      .poll(async () => (await queue(page)).decidedToday.find((d) => d.paymentId === w.id)?.bankStatus, {
        timeout: 20_000,
      })
      .toBe("Complete");
    await page.goto(`${world.app.url}/accounts`);
    const name = before?.name as string;
    const card = page.getByRole("article", { name, exact: true });
    await expect
      .poll(() => card.innerText(), { timeout: FIRST_WAIT })
      .toContain(formatUsd((before?.availableCents ?? 0) + 432_109));
    await page.goto(`${world.app.url}/accounts/${dda}`);
    const credit = page.locator("tbody tr[data-row-index]", { hasText: w.id });
    await credit.first().waitFor({ timeout: FIRST_WAIT });
    expect(await credit.count()).toBe(1);
    expect(await credit.innerText()).toContain("+$4,321.09");

    // The history item links to its e-wire summary.
    await credit.click();
    await page.getByRole("link", { name: "E-wire summary of this payment" }).click();
    await page.waitForURL(/\/wire-summaries\?uniqueId=/);
    const summary = page.locator("tbody tr", { hasText: w.originatorName });
    await summary.waitFor({ timeout: FIRST_WAIT });
    expect(await summary.innerText()).toContain("$4,321.09");
    await axe(page, "wire summaries");
    await shot(page, "wire-summaries-1440");
  });

  it("cancels and returns from the queue; each reaches its state at the bank, the return with its return wire", async () => {
    const toCancel = await incomingWire(210.1);
    const toReturn = await incomingWire(320.2);
    await page.goto(`${world.app.url}/incoming-wires`);

    await focusWire(page, toCancel.id);
    await page.keyboard.press("c");
    const cancel = page.getByRole("dialog", { name: "Cancel this incoming wire?" });
    await expect.poll(() => cancel.isVisible()).toBe(true);
    expect(await cancel.innerText()).toContain(toCancel.originatorName);
    await axe(page, "cancel dialog");
    await page.keyboard.press("Enter");
    await expect.poll(() => row(page, toCancel.id).count(), { timeout: 20_000 }).toBe(0);

    await focusWire(page, toReturn.id);
    await page.keyboard.press("r");
    const ret = page.getByRole("dialog", { name: "Return this incoming wire?" });
    await expect.poll(() => ret.isVisible()).toBe(true);
    await axe(page, "return dialog");
    await page.keyboard.press("Enter");
    await expect.poll(() => row(page, toReturn.id).count(), { timeout: 20_000 }).toBe(0);

    const q = await queue(page);
    expect(q.decidedToday.find((d) => d.paymentId === toCancel.id)).toMatchObject({
      action: "cancel",
      bankStatus: "Canceled",
    });
    expect(q.decidedToday.find((d) => d.paymentId === toReturn.id)).toMatchObject({
      action: "return",
      bankStatus: "Canceled",
    });
    // The return wire settles like any wire and has its own outgoing e-wire summary (sub-type 02).
    await world.demo.sandbox("/sandbox/settle", {});
    const today = await world.demo.today();
    const out = await api<WireSummariesResponse>(
      page,
      `/api/wire-summaries?accountNumber=${dda}&date=${today}&direction=O`,
    );
    const returns = out.summaries.filter((s) => s.beneficiaryName === toReturn.originatorName);
    expect(returns).toHaveLength(1);
    expect(returns[0]).toMatchObject({ amountCents: 32_020, fedwireSubType: "02" });
    expect(out.summaries.filter((s) => s.beneficiaryName === toCancel.originatorName)).toEqual([]);
  });

  it("queues an approval through the backup during an outage, and the payment completes once when the system is back", async () => {
    const w = await incomingWire(555.55);
    await world.demo.sandbox("/sandbox/wire-system", { status: "down" });
    try {
      await focusWire(page, w.id);
      await page.keyboard.press("a");
      await expect.poll(() => page.getByRole("dialog").first().isVisible()).toBe(true);
      await page.keyboard.press("Enter");
      await expect
        .poll(() => row(page, w.id).innerText(), { timeout: 20_000 })
        .toContain("Queued for reprocessing");
      await shot(page, "incoming-wires-queued-1440");
    } finally {
      await world.demo.sandbox("/sandbox/wire-system", { status: "up" });
    }
    // The row takes its final state without a reload once the bank replays the log.
    await expect.poll(() => row(page, w.id).count(), { timeout: 30_000 }).toBe(0);
    const decided = page.locator(`tr[data-payment-id="${w.id}"]`);
    await expect.poll(() => decided.innerText(), { timeout: 20_000 }).toContain("through the backup log");
    await world.demo.sandbox("/sandbox/settle", {});
    await expect
      .poll(async () => (await queue(page)).decidedToday.find((d) => d.paymentId === w.id)?.bankStatus, {
        timeout: 20_000,
      })
      .toBe("Complete");
    const today = await world.demo.today();
    const h = await api<HistoryResponse>(page, `/api/accounts/${dda}/history?from=${today}&to=${today}`);
    expect(h.items.filter((i) => i.paymentId === w.id)).toHaveLength(1);
  });

  it("needs two approvers above the limit: one approval does not send, the second does, once", async () => {
    const w = await incomingWire(1_500_000);
    await focusWire(page, w.id);
    await page.keyboard.press("a");
    const dialog = page.getByRole("dialog", { name: "Approve this incoming wire?" });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.innerText()).toContain("two different approvers must agree");
    await page.keyboard.press("Enter");
    await expect.poll(() => row(page, w.id).innerText(), { timeout: 20_000 }).toContain("1 of 2 approvers");
    expect(await row(page, w.id).innerText()).toContain("approver@");
    expect((await queue(page)).wires.find((x) => x.paymentId === w.id)?.state).toBe(
      "awaiting_second_approval",
    );
    // The approver who voted opens it again: their vote is counted, a different approver decides,
    // and nothing in the dialog offers (or claims) that their agreement sends it.
    await focusWire(page, w.id);
    await page.keyboard.press("a");
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const again = await dialog.innerText();
    expect(again).toContain("Your vote to approve");
    expect(again).toContain("is already counted");
    expect(again).toContain("A different approver must decide");
    expect(again).not.toContain("your agreement sends it");
    expect(again).not.toContain("Another approver voted");
    expect(await dialog.getByRole("button", { name: /^Approve / }).count()).toBe(0);
    await axe(page, "the voter's own second look");
    await page.keyboard.press("Enter");
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect((await queue(page)).wires.find((x) => x.paymentId === w.id)?.votes).toHaveLength(1);

    const adminContext = await world.browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const admin = await signIn(adminContext, "admin");
      await focusWire(admin, w.id);
      // On a phone the amount (the largest here, $1,500,000.00) fits its column, and the drawn
      // cells take the whole table.
      const cells = row(admin, w.id).locator("td");
      const amountCell = cells.filter({ hasText: "$1,500,000.00" });
      expect(await amountCell.evaluate((td) => td.scrollWidth - td.clientWidth)).toBeLessThanOrEqual(0);
      expect(await unclaimedRowWidth(row(admin, w.id))).toBeLessThanOrEqual(1);
      await shot(admin, "incoming-wires-390");
      await admin.keyboard.press("a");
      const second = admin.getByRole("dialog", { name: "Approve this incoming wire?" });
      await expect.poll(() => second.isVisible()).toBe(true);
      // A different approver is told who voted, and that their agreement is what sends it.
      expect(await second.innerText()).toMatch(
        /approver@\S+ voted to approve \([^)]+\): your agreement sends it to the bank/,
      );
      expect(await second.innerText()).not.toContain("already counted");
      await axe(admin, "the second approver's dialog");
      await shot(admin, "incoming-wires-dialog-390");
      await admin.keyboard.press("Enter");
      await expect.poll(() => row(admin, w.id).count(), { timeout: 20_000 }).toBe(0);
      // Decided today stacks each decision on a phone, every value under its name: nothing
      // scrolls sideways.
      const decided = admin.locator(`tr[data-payment-id="${w.id}"]`);
      await decided.waitFor({ timeout: FIRST_WAIT });
      expect(await decided.innerText()).toMatch(/approver@\S+ and admin@/);
      const label = await decided
        .locator("td", { hasText: "admin@" })
        .evaluate((td) => getComputedStyle(td, "::before").content);
      expect(label).toBe('"Decided by"');
      expect(await sidewaysOverflow(admin)).toBeLessThanOrEqual(0);
      await shot(admin, "incoming-wires-decided-390");
      const d = (await queue(admin)).decidedToday.find((x) => x.paymentId === w.id);
      expect(d?.decidedBy).toEqual([expect.stringMatching(/^approver@/), expect.stringMatching(/^admin@/)]);
      expect(d?.bankStatus).toBe("In-Progress");
      const audit = await api<AuditResponse>(admin, "/api/admin/audit");
      const mine = audit.entries.filter((e) => e.target === w.id).map((e) => e.action);
      expect(mine.filter((a) => a === "incoming_wire.approve")).toHaveLength(1);
      expect(mine.filter((a) => a === "incoming_wire.vote")).toHaveLength(1);
      // The audit page filters by action (and who) and exports the same filter as CSV.
      await admin.goto(`${world.app.url}/admin/audit`);
      await admin.getByLabel("Action").selectOption("incoming_wire.vote");
      await admin.getByLabel("Who (e-mail contains)").fill("approver@");
      await admin.getByRole("button", { name: "Filter" }).click();
      await admin.waitForURL(/action=incoming_wire.vote/);
      const voteRow = admin.locator("tbody tr", { hasText: w.id });
      await voteRow.waitFor({ timeout: FIRST_WAIT });
      expect(await admin.locator("tbody tr", { hasText: "incoming_wire.approve" }).count()).toBe(0);
      // The entry in words, its result as a status word, and its detail one click away.
      expect(await voteRow.innerText()).toContain("Incoming wire: first of two approvals");
      expect(await voteRow.innerText()).toContain("awaiting second approval");
      await voteRow.getByText(/^\d+ fields?$/).click();
      await expect.poll(() => voteRow.innerText()).toContain("150000000 ($1,500,000.00)");
      await axe(admin, "audit page at 390 px");
      await shot(admin, "audit-390");
      const href = await admin.getByRole("link", { name: "Export CSV" }).getAttribute("href");
      expect(href).toContain("action=incoming_wire.vote");
      const csv = await admin.request.get(`${world.app.url}${href}`);
      expect(csv.headers()["content-type"]).toContain("text/csv");
      const text = await csv.text();
      expect(parseCsv(text)[0]).toEqual(["When (UTC)", "Who", "Action", "Target", "Result", "IP", "Detail"]);
      expect(text).toContain(w.id);
      await admin.goto(`${world.app.url}/wire-summaries`);
      await admin.getByRole("heading", { name: "Wire summaries", level: 1 }).waitFor();
      await axe(admin, "wire summaries at 390 px");
      await shot(admin, "wire-summaries-390");
    } finally {
      await adminContext.close();
    }
  });
});

describe("incoming-wire queue when the bank cannot be reached", () => {
  // The dashboard talks to a bank this test runs itself (BANK_API_URL), so the test can stop it
  // and start it again on the same data and port.
  let bank: TestBank;
  let bankDir: string;
  let bankPort: number;
  let dashboard: RunningDashboard;
  let context: BrowserContext;
  let key: string;
  let account: string;

  beforeAll(async () => {
    bankDir = fs.mkdtempSync(path.join(os.tmpdir(), "queue-outage-bank-"));
    bankPort = await freePort();
    bank = await startTestBank({ dataDir: bankDir, env: { BANK_PORT: String(bankPort) } });
    const c = await sandboxCustomer(bank, "Outage Traders LLC");
    key = c.subscriptionKey;
    account = await c.account("DDA", 100);
    dashboard = await startDashboard({
      env: { BANK_API_URL: bank.url, BANK_SUBSCRIPTION_KEY: key },
      timeoutMs: 600_000,
    });
    context = await world.browser.newContext({ viewport: { width: 1440, height: 900 } });
  }, 660_000);

  afterAll(async () => {
    await context?.close();
    await dashboard?.stop();
    await bank?.close();
    if (bankDir) fs.rmSync(bankDir, { recursive: true, force: true });
  });

  it("keeps the last list marked stale, loses no decision and sends none blind", async () => {
    const w = await testSandbox<{ payment_id: string }>(bank, "POST", "/sandbox/incoming-wires", {
      accountNumber: account,
      amount: 77.7,
      originatorName: "UNREACHABLE BANK TEST CO",
    });
    const page = await signInAs(dashboard, context, "approver");
    await page.goto(`${dashboard.url}/incoming-wires`);
    const wireRow = page.locator(`tbody tr[data-row-index][data-payment-id="${w.payment_id}"]`);
    await wireRow.waitFor({ timeout: FIRST_WAIT });

    await bank.close();
    const stale = page.getByRole("alert").filter({ hasText: "The bank cannot be reached" });
    await stale.waitFor({ timeout: 30_000 });
    expect(await stale.innerText()).toContain("may be out of date");
    expect(await wireRow.count()).toBe(1);
    await axe(page, "queue marked stale");
    await shot(page, "incoming-wires-stale-1440");

    // A decision while the bank is away fails in plain words and is not kept for a blind resend.
    await wireRow.click();
    await page.keyboard.press("a");
    const dialog = page.getByRole("dialog", { name: "Approve this incoming wire?" });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await page.keyboard.press("Enter");
    await expect.poll(() => dialog.getByRole("alert").innerText(), { timeout: 30_000 }).toMatch(/bank/i);
    await page.keyboard.press("Escape");

    bank = await startTestBank({ dataDir: bankDir, env: { BANK_PORT: String(bankPort) } });
    await stale.waitFor({ state: "detached", timeout: 30_000 });
    const q = await (await page.request.get(`${dashboard.url}/api/incoming-wires`)).json();
    expect(q.wires.find((x: { paymentId: string }) => x.paymentId === w.payment_id)?.state).toBe("pending");
    expect(q.decidedToday).toEqual([]);

    // With the bank back, the same decision goes through once.
    await wireRow.click();
    await page.keyboard.press("a");
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await page.keyboard.press("Enter");
    await expect.poll(() => wireRow.count(), { timeout: 20_000 }).toBe(0);
  });
});
