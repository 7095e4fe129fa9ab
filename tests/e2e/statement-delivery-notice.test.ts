// A statement subscription whose e-mail cannot be delivered, in real Chromium against `npm start`:
// the dashboard's mail relay refuses every message (554), the subscription runs at 07:00 of the
// bank's next business day and its eight attempts fail on the bank's clock; the inbox then tells
// the administrator who made it, with the subscription, the day, the attempts and the relay's
// reason, reachable by keyboard, and axe finds nothing serious.
import { beforeAll, describe, expect, it } from "vitest";
import { addBusinessDays } from "../../lib/bank-api/business-days.ts";
import type { AccountsResponse } from "../../lib/dashboard-api/accounts.ts";
import type { StatementDelivery, StatementSubscription } from "../../lib/statements/subscriptions.ts";
import { FIRST_WAIT, seriousAxeViolations, shot } from "../helpers/browser.ts";
import { browserWorld } from "../helpers/browser-world.ts";
import { startRefusingSmtp } from "../helpers/refusing-smtp.ts";
import { wallTime } from "../helpers/wall-time.ts";

// Filled before the product starts (hooks run in the order they are declared); the relay stops
// with the test process.
const env: Record<string, string> = { SCHEDULE_RUN_SECONDS: "1" };
beforeAll(async () => {
  env.DASHBOARD_SMTP_URL = (await startRefusingSmtp()).url;
});
const world = browserWorld({ env });

describe("a statement delivery given up", () => {
  it("is told in the administrator's inbox with its reason, by keyboard and without serious axe findings", {
    timeout: 300_000,
  }, async () => {
    const { context, page } = await world.session("admin");
    try {
      const admin = world.app.users.find((u) => u.role === "admin");
      const { accounts } = await world.api<AccountsResponse>(page, "/api/accounts");
      const account = accounts[0].accountNumber;
      const name = `Refused close ${Date.now()}`;
      const made = await page.request.post(`${world.app.url}/api/statements/subscriptions`, {
        data: { name, accounts: [account], recipients: [admin?.email] },
      });
      expect(made.status(), await made.text()).toBe(201);
      const id = ((await made.json()) as { subscription: StatementSubscription }).subscription.id;

      // 07:05 of the bank's next business day: the delivery is due, and the relay refuses it.
      const clock = () => world.demo.sandboxGet<{ now: string; businessDate: string }>("/sandbox/clock");
      const moveClockTo = async (at: number) => {
        const now = Date.parse((await clock()).now);
        if (at > now)
          await world.demo.sandbox("/sandbox/clock", { advanceSeconds: Math.ceil((at - now) / 1000) });
      };
      const day = addBusinessDays((await clock()).businessDate, 1);
      await moveClockTo(wallTime(day, "07:05", "America/New_York"));
      const delivery = async () =>
        (
          await world.api<{ deliveries: StatementDelivery[] }>(page, "/api/statements/subscriptions")
        ).deliveries.find((d) => d.subscriptionId === id && d.businessDay === day);
      // Each attempt is over once the day is failed or waits for its next attempt (a day being
      // sent reads as retrying without one); the clock then moves to that next attempt.
      const settled = async (attempt: number) => {
        const d = await delivery();
        return !!d && d.attempts >= attempt && (d.status === "failed" || !!d.nextAttemptAt);
      };
      for (let attempt = 1; ; attempt++) {
        await expect.poll(() => settled(attempt), { timeout: 60_000 }).toBe(true);
        const d = (await delivery()) as StatementDelivery;
        if (d.status === "failed") break;
        expect(attempt, "given up after eight attempts").toBeLessThan(8);
        await moveClockTo(Date.parse(d.nextAttemptAt as string) + 1_000);
      }
      const failed = (await delivery()) as StatementDelivery;
      expect(failed).toMatchObject({ status: "failed", attempts: 8, deliveredAt: null });
      expect(failed.reason).toMatch(/Relay access denied/);

      await page.goto(`${world.app.url}/approvals`);
      const card = page.getByRole("region", { name: "Statements that were not delivered" });
      await card.waitFor({ timeout: FIRST_WAIT });
      const notice = card.getByRole("listitem").filter({ hasText: name });
      await expect.poll(() => notice.innerText()).toMatch(/not delivered after 8 attempts/);
      const said = await notice.innerText();
      expect(said).toContain(account);
      expect(said).toContain(day);
      expect(said).toMatch(/Relay access denied/);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, "inbox-statement-notice");

      // By keyboard: Tab reaches the notice's link, and Enter opens the Statements page.
      const link = notice.getByRole("link", { name: "Open Statements" });
      await page.locator("body").focus();
      let reached = false;
      for (let i = 0; i < 80 && !reached; i++) {
        await page.keyboard.press("Tab");
        reached = await link.evaluate((el) => el === document.activeElement);
      }
      expect(reached, "Tab reaches Open Statements in the notice").toBe(true);
      expect(await link.evaluate((el) => el.matches(":focus-visible"))).toBe(true);
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/statements$/, { timeout: FIRST_WAIT });
      await page.getByRole("heading", { name: "Statements", level: 1 }).waitFor();
    } finally {
      await context.close();
    }
  });
});
