// Scheduled payments in real Chromium against the product as `npm start` starts it: a preparer
// schedules monthly rent and a biweekly payroll top-up on the Scheduled page, an approver approves
// the payroll series (above the release threshold), the bank's clock moves five weeks, and the
// payments appear in the series' history and at the bank. Looked at with axe, list and month, and
// on a phone (390 px) with history and a change form open.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBusinessDays } from "../../lib/bank-api/business-days.ts";
import { dayInWords } from "../../lib/calendar/recurrence.ts";
import type { AccountsResponse } from "../../lib/dashboard-api/index.ts";
import type { SchedulesResponse, SeriesResponse } from "../../lib/dashboard-api/schedules.ts";
import { FIRST_WAIT, seriousAxeViolations, shot, sidewaysOverflow } from "../helpers/browser.ts";
import { browserWorld } from "../helpers/browser-world.ts";

const world = browserWorld({ env: { SCHEDULE_RUN_SECONDS: "1" }, timeoutMs: 1_200_000 });

describe("the Scheduled page, in Chromium", () => {
  let preparer: { context: BrowserContext; page: Page };
  let approver: { context: BrowserContext; page: Page };
  let sen: string[];

  beforeAll(async () => {
    preparer = await world.session("preparer");
    approver = await world.session("approver");
    const accounts = await world.api<AccountsResponse>(preparer.page, "/api/accounts");
    sen = accounts.accounts.filter((a) => a.type === "SEN").map((a) => a.accountNumber);
    expect(sen.length).toBeGreaterThanOrEqual(2);
    await world.demo.sandbox("/sandbox/deposits", {
      accountNumber: sen[0],
      amount: 2_000_000,
      description: "E2E SCHEDULED",
    });
  });
  afterAll(async () => {
    for (const s of [preparer, approver]) await s?.context.close();
  });

  const balanceOf = async (page: Page, account: string) =>
    (await world.api<{ availableCents: number }>(page, `/api/accounts/${account}/balance`)).availableCents;

  it("schedules rent and payroll, an approver approves payroll, and the clock brings the payments", async () => {
    const { page } = preparer;
    await page.goto(`${world.app.url}/scheduled`);
    await expect
      .poll(() => page.getByRole("heading", { name: "Schedule a SEN transfer" }).count(), {
        timeout: FIRST_WAIT,
      })
      .toBe(1);

    // Tomorrow at the bank: nothing falls due before the approver has approved.
    const { today } = await world.api<SchedulesResponse>(page, "/api/schedules");
    const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const schedule = async (o: { name: string; amount: string; repeats: string; weekly?: boolean }) => {
      await page.getByLabel("Series name", { exact: true }).fill(o.name);
      await page.getByLabel("Amount", { exact: true }).fill(o.amount);
      await page.getByLabel("From account").selectOption(sen[0]);
      await page.getByLabel("To account").fill(sen[1]);
      await page.getByLabel("Repeats").selectOption(o.repeats);
      await page.getByLabel("Starts on").fill(tomorrow);
      if (o.weekly) {
        await page.getByLabel("Every how many weeks").fill("2");
        await page.getByLabel("On", { exact: true }).selectOption("FR");
      }
      await page.getByRole("button", { name: "Schedule transfer" }).click();
      await expect
        .poll(() => page.getByRole("status").first().innerText(), { timeout: 30_000 })
        .toContain(`Scheduled: ${o.name}`);
    };
    await schedule({ name: "E2E office rent", amount: "1,200.00", repeats: "monthly-first-business-day" });
    await schedule({ name: "E2E payroll top-up", amount: "300,000.00", repeats: "weekly", weekly: true });

    await expect.poll(() => page.getByRole("heading", { name: "E2E payroll top-up" }).count()).toBe(1);
    await expect.poll(() => page.getByText("Every 2 weeks on Friday").count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText("Monthly on the first business day").count()).toBeGreaterThan(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "scheduled-list");
    await page.getByRole("button", { name: "Month" }).click();
    await expect.poll(() => page.getByRole("table", { name: /Scheduled payments in/ }).count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "scheduled-month");

    const list = await world.api<SchedulesResponse>(page, "/api/schedules");
    const payroll = list.series.find((s) => s.name === "E2E payroll top-up");
    const rentSeries = list.series.find((s) => s.name === "E2E office rent");
    expect(payroll).toMatchObject({ approved: false, approvalsRequired: 1 });
    expect(rentSeries).toMatchObject({ approved: true, approvalsRequired: 0 });

    // The balance ahead of the paying account: a one-off bigger than what it holds, ten business
    // days out, is a coming shortfall that its account page and the inbox name, with the payment.
    const available = await balanceOf(page, sen[0]);
    const due = addBusinessDays(today, 10);
    await page.getByLabel("Series name", { exact: true }).fill("E2E equipment");
    await page.getByLabel("Amount", { exact: true }).fill(((available + 100_000) / 100).toFixed(2));
    await page.getByLabel("From account").selectOption(sen[0]);
    await page.getByLabel("To account").fill(sen[1]);
    await page.getByLabel("Repeats").selectOption("once");
    await page.getByLabel("Pay on").fill(due);
    await page.getByRole("button", { name: "Schedule transfer" }).click();
    await expect
      .poll(() => page.getByRole("status").first().innerText(), { timeout: 30_000 })
      .toContain("Scheduled: E2E equipment");

    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${world.app.url}/accounts/${sen[0]}`);
      const shortfall = page.getByTestId("ahead-shortfall");
      await expect
        .poll(() => shortfall.innerText(), { timeout: FIRST_WAIT })
        .toContain(`Projected below zero on ${dayInWords(due)}`);
      expect(await shortfall.innerText()).toContain("E2E equipment");
      // The day opens to its payments, each kind apart.
      const ahead = page.getByRole("region", { name: "The balance ahead" });
      await ahead.getByText(dayInWords(due), { exact: true }).click();
      await expect.poll(() => ahead.innerText()).toContain("Waiting for approval");
      // The chart draws zero where the balance ahead crosses it, and says so.
      expect(await ahead.locator('line[data-level="Zero"]').count()).toBe(1);
      expect(await ahead.getByRole("img").first().getAttribute("aria-label")).toContain(
        "Reaches zero ($0.00)",
      );
      expect(await seriousAxeViolations(page)).toEqual([]);
      // A phone reads it without scrolling sideways.
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      await shot(page, `balance-ahead-${width}`);
    }
    await page.setViewportSize({ width: 1360, height: 900 });
    // The approver's inbox warns of it, days ahead.
    const inbox = approver.page;
    await inbox.goto(`${world.app.url}/approvals`);
    const warning = inbox.getByTestId("shortfall").filter({ hasText: dayInWords(due) });
    await expect.poll(() => warning.count(), { timeout: FIRST_WAIT }).toBe(1);
    expect(await warning.innerText()).toContain("E2E equipment");
    expect(await seriousAxeViolations(inbox)).toEqual([]);
    await shot(inbox, "inbox-shortfall");
    // And e-mails it, once, to the approver's own mail box (/mail in the default set-up).
    const shortfallMails = async () => {
      await inbox.goto(`${world.app.url}/mail`);
      await inbox.getByRole("heading", { level: 1, name: "Mail" }).waitFor({ timeout: FIRST_WAIT });
      return inbox
        .locator('[data-mail-kind="balance_ahead.shortfall"]')
        .filter({ hasText: `falls below zero on` })
        .filter({ hasText: "E2E equipment" })
        .count();
    };
    await expect.poll(shortfallMails, { timeout: 120_000, interval: 3_000 }).toBe(1);
    // Cancelled, it is no longer a shortfall.
    await page.goto(`${world.app.url}/scheduled`);
    const equipment = page.getByRole("region", { name: "E2E equipment" });
    await equipment.getByRole("button", { name: "Cancel series" }).click({ timeout: FIRST_WAIT });
    await expect
      .poll(() => page.getByRole("status").first().innerText())
      .toContain("E2E equipment is cancelled.");
    await page.goto(`${world.app.url}/accounts/${sen[0]}`);
    await expect
      .poll(() => page.getByTestId("ahead-shortfall").innerText(), { timeout: FIRST_WAIT })
      .toContain("No day of the next 30 business days falls below zero");
    expect(await page.locator('line[data-level="Zero"]').count()).toBe(0);

    // The approver approves the payroll series by keyboard.
    const a = approver.page;
    await a.goto(`${world.app.url}/scheduled`);
    const approve = a.getByRole("button", { name: "Approve series" });
    await expect.poll(() => approve.count(), { timeout: FIRST_WAIT }).toBe(1);
    await approve.focus();
    await a.keyboard.press("Enter");
    await expect
      .poll(() => a.getByRole("status").first().innerText())
      .toContain("You approved E2E payroll top-up.");

    const before = await balanceOf(page, sen[1]);
    // Five weeks at the bank: at least one first business day and two payroll Fridays.
    await world.demo.sandbox("/sandbox/clock", { advanceSeconds: 35 * 86_400 });
    const historyOf = async (id: string) =>
      (await world.api<SeriesResponse>(page, `/api/schedules/${id}`)).history;
    await expect
      .poll(async () => (await historyOf(payroll?.id as string)).filter((h) => h.status === "sent").length, {
        timeout: 120_000,
      })
      .toBeGreaterThanOrEqual(2);
    await expect
      .poll(
        async () => (await historyOf(rentSeries?.id as string)).filter((h) => h.status === "sent").length,
        { timeout: 60_000 },
      )
      .toBeGreaterThanOrEqual(1);
    const paid = [
      ...(await historyOf(payroll?.id as string)),
      ...(await historyOf(rentSeries?.id as string)),
    ];
    expect(paid.every((h) => h.status === "sent")).toBe(true);
    const total = paid.reduce((n, h) => n + (h.amountCents ?? 0), 0);
    expect(await balanceOf(page, sen[1])).toBe(before + total);

    await page.goto(`${world.app.url}/scheduled`);
    const history = page.getByRole("button", { name: "History" }).first();
    await expect.poll(() => history.count(), { timeout: FIRST_WAIT }).toBe(1);
    await history.click();
    await expect.poll(() => page.getByRole("table", { name: /History of/ }).count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "scheduled-history");

    // The preparer turns payroll the other way round, from the account it paid into to the one it
    // paid from: the approved series waits for approval again. A To account equal to the From
    // account is the server's 400, shown under the field.
    const card = page.getByRole("region", { name: "E2E payroll top-up" });
    await card.getByRole("button", { name: "Edit" }).click();
    const to = card.getByLabel("To account");
    const from = card.getByLabel("From account");
    await expect.poll(() => to.inputValue()).toBe(sen[1]);
    await expect.poll(() => from.inputValue()).toBe(sen[0]);
    const save = async () => {
      await card.getByRole("button", { name: "Save changes" }).focus();
      await page.keyboard.press("Enter");
    };
    await to.fill(sen[0]);
    await save();
    await expect
      .poll(() => card.getByText("Must differ from the account the money comes from").count())
      .toBe(1);
    await from.selectOption(sen[1]);
    await save();
    await expect
      .poll(() => page.getByRole("status").first().innerText(), { timeout: 30_000 })
      .toContain("E2E payroll top-up is changed.");
    const changed = await world.api<SeriesResponse>(page, `/api/schedules/${payroll?.id}`);
    expect(changed.series).toMatchObject({ fromAccount: sen[1], counterparty: sen[0], approved: false });
    await expect.poll(() => card.getByText("Waiting for approval").count()).toBeGreaterThan(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A phone reads the page with series, their history and a change form open, without
    // scrolling sideways (the page or any of its tables).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    const phoneCard = page.getByRole("region", { name: "E2E office rent" });
    await phoneCard.getByRole("button", { name: "History" }).click({ timeout: FIRST_WAIT });
    await expect.poll(() => phoneCard.getByRole("table", { name: /History of/ }).count()).toBe(1);
    await phoneCard.getByRole("button", { name: "Edit" }).click();
    await expect.poll(() => phoneCard.getByRole("button", { name: "Save changes" }).count()).toBe(1);
    await expect.poll(() => sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "scheduled-390");
  });
});
