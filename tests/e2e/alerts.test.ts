// Webhook management and balance alerts in real Chromium against `npm start`: a webhook
// registered and deleted through the page is seen (and then not seen) at the bank; a low-balance
// rule fires one toast and one panel entry when a SEN transfer takes the balance under its line,
// none for a second transfer still under it, and fires again after a deposit brought the balance
// back. The rule's e-mail address gets one message per crossing too (in the default setup, in the
// bank's sandbox mail box), not one per balance change. axe finds no serious or critical
// violation on the new pages, at desktop and phone widths.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatUsd } from "../../lib/bank-api/money.ts";
import type { AccountsResponse } from "../../lib/dashboard-api/index.ts";
import { FIRST_WAIT, launchChromium, seriousAxeViolations, shot, signIn } from "../helpers/browser.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";
import { type DemoBank, demoBank } from "../helpers/live.ts";

let app: RunningDashboard;
let browser: Browser;
let bank: DemoBank;

beforeAll(async () => {
  // A short token interval lets the test hold a token of the demo key beside the dashboard's.
  app = await startDashboard({ env: { BANK_TOKEN_INTERVAL_SECONDS: "1" }, timeoutMs: 900_000 });
  bank = demoBank(app.dataDir);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** Looks at the page at a phone's width and at a desktop's, and asks axe about both. */
async function lookAndCheck(page: Page, name: string) {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await shot(page, `${name}-${width}`);
    expect(await seriousAxeViolations(page), `${name} at ${width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe("webhooks and balance alerts in Chromium", () => {
  let context: BrowserContext;
  let page: Page;
  let accounts: AccountsResponse;

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await signIn(app, context, "preparer");
    accounts = (await (await page.request.get(`${app.url}/api/accounts`)).json()) as AccountsResponse;
  });

  /** Opens the accounts page afresh (each test starts there) and, when asked, counts every toast that appears on it from now on, however soon it goes. */
  const fromAccounts = async (o: { watchToasts?: boolean } = {}) => {
    await page.goto(`${app.url}/accounts`);
    if (!o.watchToasts) return;
    await page.evaluate(() => {
      const w = window as unknown as { toasts: string[] };
      w.toasts = [];
      new MutationObserver((records) => {
        for (const r of records)
          for (const n of r.addedNodes)
            if (n instanceof HTMLElement && n.matches("[data-toast]")) w.toasts.push(n.innerText);
      }).observe(document.body, { childList: true, subtree: true });
    });
  };
  afterAll(async () => {
    await context?.close();
  });

  /** The balance-alert toasts shown so far (other toasts confirm saves and deletions). */
  const toasts = async () =>
    (await page.evaluate(() => (window as unknown as { toasts: string[] }).toasts)).filter((t) =>
      t.includes("Balance alert"),
    );

  it("registers a webhook through the page, refuses a bad address by field, and deletes it with a named confirmation", async () => {
    await fromAccounts();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
    // The dashboard's own live-balance webhooks, registered when the first page listened.
    const table = page.getByRole("table", { name: "Webhooks by account" });
    await expect
      .poll(async () => (await table.count()) && (await table.innerText()), { timeout: FIRST_WAIT })
      .toContain("Dashboard · Live balances");
    const liveRow = table.getByRole("row").filter({ hasText: "Dashboard · Live balances" }).first();
    expect(await liveRow.getByRole("button", { name: /Delete/ }).count()).toBe(0);

    const dda = accounts.accounts.find((a) => a.type === "DDA") as AccountsResponse["accounts"][number];
    const form = page.getByRole("form", { name: "Register a webhook" });
    await form.getByLabel("Account").selectOption(dda.accountNumber);
    await form.getByLabel("Description").fill("ERP balance feed");
    await form.getByLabel("E-mail addresses").fill("treasury@example.com, not-an-address");
    await form.getByRole("button", { name: "Register webhook" }).click();
    await expect.poll(() => form.getByLabel("E-mail addresses").getAttribute("aria-invalid")).toBe("true");
    expect(await form.innerText()).toContain('"not-an-address" is not an e-mail address');
    expect((await bank.webhooks()).some((h) => h.Emails.includes("treasury@example.com"))).toBe(false);

    await form.getByLabel("URL").fill("https://erp.example.com/bank-events");
    await form.getByLabel("E-mail addresses").fill("treasury@example.com, cfo@example.com");
    await form.getByRole("button", { name: "Register webhook" }).click();
    const row = table.getByRole("row").filter({ hasText: "ERP balance feed" });
    await row.waitFor();
    const atBank = (await bank.webhooks()).find(
      (h) => h.WebHookUrl === "https://erp.example.com/bank-events",
    );
    expect(atBank).toMatchObject({ AccountNumber: dda.accountNumber });
    expect(atBank?.Emails).toContain("cfo@example.com");
    await lookAndCheck(page, "webhooks");

    await row.getByRole("button", { name: /Delete webhook “ERP balance feed”/ }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this webhook?" });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(
      `“ERP balance feed” on ${dda.name} ••••${dda.accountNumber.slice(-4)}`,
    );
    await shot(page, "webhooks-delete-dialog", false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Delete webhook" }).click();
    await row.waitFor({ state: "detached" });
    expect((await bank.webhooks()).map((h) => h.WebHookId)).not.toContain(atBank?.WebHookId);
  });

  it("fires one alert per crossing of the low line: a toast and a panel entry, again only after the balance came back", async () => {
    const [sen, other] = accounts.accounts.filter((a) => a.type === "SEN");
    await fromAccounts({ watchToasts: true });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Alerts" }).click();
    await page.getByRole("heading", { name: "Balance alerts", level: 1 }).waitFor();
    const card = page.getByRole("region", { name: `${sen.name} · ${sen.accountNumber}` });
    await card.waitFor({ timeout: FIRST_WAIT });
    const form = card.getByRole("form");

    // Not a positive amount with two decimals: a field error, nothing saved.
    await form.getByLabel("Alert when below ($)").fill("12.345");
    await form.getByRole("button", { name: "Set alert" }).click();
    await expect
      .poll(() => form.getByLabel("Alert when below ($)").getAttribute("aria-invalid"))
      .toBe("true");
    const rules = async () =>
      (await (await page.request.get(`${app.url}/api/alerts`)).json()).rules as unknown[];
    expect(await rules()).toEqual([]);

    // The line sits $100 under today's balance, typed as the page writes amounts ("$1,234.56").
    const line = sen.availableCents - 10_000;
    const address = `crossings-${Date.now()}@example.com`;
    await form.getByLabel("Alert when below ($)").fill(formatUsd(line));
    await form.getByLabel("E-mail addresses").fill(address);
    await form.getByRole("button", { name: "Set alert" }).click();
    await card.getByText("Armed", { exact: true }).waitFor();
    // The toast says what was set, in the page's words.
    const saved = page.locator("[data-toast]").filter({ hasText: "Alert set" });
    await saved.waitFor();
    expect(await saved.innerText()).toContain(
      `Alert set: ${sen.name} ••••${sen.accountNumber.slice(-4)} below ${formatUsd(line)}`,
    );
    expect(await saved.innerText()).toContain(`Once per crossing, to signed-in users and ${address}`);
    expect(await card.innerText()).toContain(`Below ${formatUsd(line)}`);
    await lookAndCheck(page, "alerts");

    const panelButton = page.getByRole("button", { name: /^Notifications/ });
    const entries = async () => {
      const r = await page.request.get(`${app.url}/api/notifications?limit=100`);
      const body = (await r.json()) as { items: { accountNumber: string; alerts: unknown[] }[] };
      return body.items.filter((i) => i.accountNumber === sen.accountNumber);
    };
    const before = (await entries()).length;

    // Under the line: one alert.
    await bank.transfer(sen.accountNumber, other.accountNumber, 200);
    await expect.poll(toasts, { timeout: 30_000 }).toHaveLength(1);
    expect((await toasts())[0]).toContain(`Balance alert: ${sen.name} ••••${sen.accountNumber.slice(-4)}`);
    expect((await toasts())[0]).toContain(`fell below ${formatUsd(line)}`);
    await card.getByText("Below now · re-arms above").waitFor();
    await panelButton.click();
    const panel = page.getByRole("region", { name: "Notifications" });
    await panel.waitFor();
    await expect.poll(() => panel.getByText(`Alert: fell below ${formatUsd(line)}`).count()).toBe(1);
    await shot(page, "notifications-panel", false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });

    // Still under it: the change is listed, no second alert.
    await bank.transfer(sen.accountNumber, other.accountNumber, 10);
    await expect.poll(async () => (await entries()).length, { timeout: 30_000 }).toBe(before + 2);
    await page.waitForTimeout(1500);
    expect(await toasts()).toHaveLength(1);
    expect((await entries()).filter((e) => e.alerts.length > 0)).toHaveLength(1);

    // Back over the line re-arms it; the next fall alerts once more.
    await bank.deposit(sen.accountNumber, 500, "BACK OVER");
    await card.getByText("Armed", { exact: true }).waitFor({ timeout: 30_000 });
    expect(await toasts()).toHaveLength(1);
    await bank.transfer(sen.accountNumber, other.accountNumber, 400);
    await expect.poll(toasts, { timeout: 30_000 }).toHaveLength(2);
    await panelButton.click();
    await expect.poll(() => panel.getByText(`Alert: fell below ${formatUsd(line)}`).count()).toBe(2);
    expect((await entries()).filter((e) => e.alerts.length > 0)).toHaveLength(2);
    await panel.getByRole("button", { name: "Mark all read" }).click();
    await expect.poll(() => panelButton.innerText()).not.toContain("unread");

    // Four balance changes, two crossings: two messages to the rule's address, each naming the line.
    const mail = async () => {
      const r = await fetch(`${bank.bankUrl}/sandbox/mail?to=${encodeURIComponent(address)}`, {
        headers: { "x-sandbox-key": bank.sandboxKey },
      });
      return (await r.json()) as { subject: string; text: string }[];
    };
    await expect.poll(async () => (await mail()).length, { timeout: 30_000 }).toBe(2);
    await page.waitForTimeout(1500);
    const got = await mail();
    expect(got).toHaveLength(2);
    // Each names the account as the pages do: its name beside the masked number.
    for (const m of got)
      expect(m.subject).toBe(
        `Balance alert: ${sen.name} ••••${sen.accountNumber.slice(-4)} fell below ${formatUsd(line)}`,
      );

    // The audit log names the rule's account beside its number, at both widths.
    const adminContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const admin = await signIn(app, adminContext, "admin");
      await admin.goto(`${app.url}/admin/audit?action=alert_rule.create`);
      const row = admin.locator("tbody tr").filter({ hasText: sen.accountNumber }).first();
      await row.waitFor({ timeout: FIRST_WAIT });
      expect(await row.innerText()).toContain(`${sen.name}\n${sen.accountNumber}`);
      await lookAndCheck(admin, "audit-alert-rule");
    } finally {
      await adminContext.close();
    }
  });

  it("shows a viewer the webhooks and alerts without a way to change them", async () => {
    const viewerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const viewer = await signIn(app, viewerContext, "viewer");
      await viewer.goto(`${app.url}/webhooks`);
      await viewer
        .getByText("Your role can see webhooks but not change them.")
        .waitFor({ timeout: FIRST_WAIT });
      expect(await viewer.getByRole("button", { name: /Delete/ }).count()).toBe(0);
      expect(await viewer.getByRole("form", { name: "Register a webhook" }).count()).toBe(0);
      expect(await seriousAxeViolations(viewer)).toEqual([]);
      await viewer.goto(`${app.url}/alerts`);
      const [sen] = accounts.accounts.filter((a) => a.type === "SEN");
      const card = viewer.getByRole("region", { name: `${sen.name} · ${sen.accountNumber}` });
      await card.waitFor({ timeout: FIRST_WAIT });
      expect(await card.innerText()).toContain("Below");
      expect(await viewer.getByRole("form").count()).toBe(0);
      expect(await seriousAxeViolations(viewer)).toEqual([]);
      await shot(viewer, "alerts-viewer", false);
    } finally {
      await viewerContext.close();
    }
  });
});
