// Sweeps in real Chromium against the product as `npm start` starts it: a preparer sets up a band
// on one SEN account funded from the other whose top is over the two-approver limit, so the policy
// names two approvers (docs/decisions.md, "Sweeps are approved like a series"): the approver's
// approval alone moves nothing, the administrator's second does; the bank's clock reaches the
// next business day's run, and the account is inside its band with the move in its history under
// the sweep's name, also on a phone. Widening the band is a change that waits for approval again.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBusinessDays } from "../../lib/bank-api/business-days.ts";
import { daysBetween } from "../../lib/bank-api/dates.ts";
import type { AccountsResponse, HistoryResponse } from "../../lib/dashboard-api/index.ts";
import type { SchedulesResponse, SweepsResponse } from "../../lib/dashboard-api/schedules.ts";
import { SETTING_DEFAULTS } from "../../lib/dashboard-api/settings.ts";
import { FIRST_WAIT, seriousAxeViolations, shot, sidewaysOverflow } from "../helpers/browser.ts";
import { browserWorld } from "../helpers/browser-world.ts";

const world = browserWorld({ env: { SCHEDULE_RUN_SECONDS: "1" }, timeoutMs: 1_200_000 });

describe("sweeps, in Chromium", () => {
  let preparer: { context: BrowserContext; page: Page };
  let approver: { context: BrowserContext; page: Page };
  let admin: { context: BrowserContext; page: Page };
  let kept: string;
  let funding: string;
  /** "SEN OPERATIONS ••••9524": an account as the page names it. */
  const named: Record<string, string> = {};

  beforeAll(async () => {
    preparer = await world.session("preparer");
    approver = await world.session("approver");
    admin = await world.session("admin");
    const accounts = await world.api<AccountsResponse>(preparer.page, "/api/accounts");
    [kept, funding] = accounts.accounts.filter((a) => a.type === "SEN").map((a) => a.accountNumber);
    for (const a of accounts.accounts) named[a.accountNumber] = `${a.name} ••••${a.accountNumber.slice(-4)}`;
    await world.demo.sandbox("/sandbox/deposits", {
      accountNumber: funding,
      amount: 500_000,
      description: "E2E SWEEP FUNDING",
    });
  });
  afterAll(async () => {
    for (const s of [preparer, approver, admin]) await s?.context.close();
  });

  const balanceOf = async (account: string) =>
    (await world.api<{ availableCents: number }>(preparer.page, `/api/accounts/${account}/balance`))
      .availableCents;

  it("keeps an account inside its band from the next business day's run, named in its history", async () => {
    const { page } = preparer;
    const start = await balanceOf(kept);
    // A band above today's balance: the run tops the account up to its low. Its top is over the
    // two-approver limit, whatever the demo account holds: it needs exactly two approvers.
    const low = start + 10_000_000;
    const high = Math.max(start + 20_000_000, SETTING_DEFAULTS.releaseDualApprovalCents + 50_000_000);
    await page.goto(`${world.app.url}/scheduled`);
    const form = page.getByRole("form", { name: "New sweep" });
    await form.getByLabel("Sweep name").fill("E2E operating band", { timeout: FIRST_WAIT });
    await form.getByLabel("Runs each business day at").fill("00:00");
    await form.getByLabel("Keep this account").selectOption(kept);
    await form.getByLabel("Funded from and swept to").selectOption(funding);
    await form.getByLabel("Lowest available balance").fill((low / 100).toFixed(2));
    await form.getByLabel("Highest available balance").fill((high / 100).toFixed(2));
    await form.getByRole("button", { name: "Set up sweep" }).click();
    const sweeps = page.getByRole("region", { name: "Sweeps" });
    await expect
      .poll(() => sweeps.getByRole("status").innerText(), { timeout: 30_000 })
      .toContain("Sweep E2E operating band set up: it waits for approval.");
    const card = page.getByRole("region", { name: "E2E operating band" });
    await expect.poll(() => card.innerText()).toContain("Waiting for approval");
    // The accounts by name, as everywhere else, not as bare numbers.
    // (once the accounts list has arrived: until then a number stands for itself)
    await expect.poll(() => card.innerText()).toContain(`Keeps ${named[kept]} between`);
    expect(await card.innerText()).toContain(`funded from and swept to ${named[funding]}, each business day`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "sweeps-new");

    // Nothing moves while it waits for approval.
    expect(await balanceOf(kept)).toBe(start);

    // Two approvers, each from their own Scheduled page: the approver's approval alone leaves it
    // waiting (and the day's run would move nothing), the administrator's second approves it.
    expect((await world.api<SweepsResponse>(page, "/api/schedules/sweeps")).sweeps[0]).toMatchObject({
      approvalsRequired: 2,
      approved: false,
    });
    const approveAs = async (who: { page: Page }) => {
      const a = who.page;
      await a.goto(`${world.app.url}/scheduled`);
      const approve = a.getByRole("region", { name: "E2E operating band" }).getByRole("button", {
        name: "Approve sweep",
      });
      await approve.click({ timeout: FIRST_WAIT });
      await expect
        .poll(() => a.getByRole("region", { name: "Sweeps" }).getByRole("status").innerText())
        .toContain("You approved E2E operating band.");
    };
    await approveAs(approver);
    const half = await world.api<SweepsResponse>(page, "/api/schedules/sweeps");
    expect(half.sweeps[0]).toMatchObject({ approvalsRequired: 2, approved: false });
    expect(half.sweeps[0].approvals).toHaveLength(1);
    await page.reload();
    await expect.poll(() => card.innerText(), { timeout: FIRST_WAIT }).toContain("1 of 2 approvals");
    expect(await card.innerText()).toContain("Waiting for approval");
    await approveAs(admin);
    expect((await world.api<SweepsResponse>(page, "/api/schedules/sweeps")).sweeps[0]).toMatchObject({
      approvalsRequired: 2,
      approved: true,
    });

    // The bank's next business day: its run tops the account up to the band's low.
    const { today } = await world.api<SchedulesResponse>(page, "/api/schedules");
    const next = addBusinessDays(today, 1);
    await world.demo.sandbox("/sandbox/clock", { advanceSeconds: daysBetween(today, next) * 86_400 });
    await expect.poll(() => balanceOf(kept), { timeout: 120_000, interval: 1000 }).toBe(low);
    expect(await balanceOf(funding)).toBeGreaterThanOrEqual(0);
    const swept = await world.api<SweepsResponse>(page, "/api/schedules/sweeps");
    const move = swept.sweeps[0].lastMoves.find((m) => m.status === "sent");
    expect(move).toMatchObject({ direction: "fund", amountCents: low - start });

    const history = await world.api<HistoryResponse>(
      page,
      `/api/accounts/${kept}/history?from=${today}&to=${next}&order=D`,
    );
    expect(
      history.items.some((i) => i.descriptions.some((l) => l.includes("Sweep E2E operating band"))),
    ).toBe(true);

    await page.reload();
    await expect.poll(() => card.innerText(), { timeout: FIRST_WAIT }).toContain("Moved");
    await expect.poll(() => card.innerText()).toContain(`From ${named[funding]} to ${named[kept]}`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "sweeps-moved");
    // A phone reads the card and its moves without scrolling sideways, page or table.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "sweeps-moved-390");
    await page.setViewportSize({ width: 1440, height: 900 });

    // Widening the band weakens the control: it waits for approval again.
    await card.getByRole("button", { name: "Change" }).click();
    const change = page.getByRole("form", { name: "Change E2E operating band" });
    await change.getByLabel("Highest available balance").fill(((high + 50_000_000) / 100).toFixed(2));
    await change.getByRole("button", { name: "Save changes" }).click();
    await expect
      .poll(() => sweeps.getByRole("status").innerText(), { timeout: 30_000 })
      .toContain("E2E operating band is changed: it waits for approval again.");
    await expect.poll(() => card.innerText()).toContain("Waiting for approval");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
