// Two dashboard instances, each started as `npm start` starts one, on one PostgreSQL database and
// one bank: the bank posts to the first (the shared webhook address), and a browser on each sees
// the same change (LISTEN/NOTIFY). A stream cut mid-way and resumed with Last-Event-ID — on the
// same instance or the other one — gets every event it missed, once. Both opening their first
// stream together leave one bank webhook per account.
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatUsd } from "../../lib/bank-api/money.ts";
import type { AccountsResponse } from "../../lib/dashboard-api/index.ts";
import { launchChromium, signIn } from "../helpers/browser.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";
import { createTestDatabase, PG_URL } from "../helpers/databases.ts";
import { type DemoBank, demoBank, sessionCookie, sseClient, startSecondInstance } from "../helpers/live.ts";

describe.skipIf(!PG_URL)("live balances on two dashboard instances sharing PostgreSQL", () => {
  let database: { url: string; drop(): Promise<void> };
  let a: RunningDashboard;
  let b: RunningDashboard;
  let bank: DemoBank;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(PG_URL as string);
    a = await startDashboard({
      env: { DATABASE_URL: database.url, BANK_TOKEN_INTERVAL_SECONDS: "1" },
      timeoutMs: 900_000,
    });
    bank = demoBank(a.dataDir);
    // Behind one address, as instances behind a load balancer are: the bank posts to the first.
    b = await startSecondInstance(a, database.url);
    browser = await launchChromium();
  }, 1_900_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await b?.stop();
    await a?.stop();
    await database?.drop();
  });

  it("shows one change in a browser on each instance, and a resumed stream misses nothing", async () => {
    for (let i = 0; i < 2; i++)
      contexts.push(await browser.newContext({ viewport: { width: 1280, height: 900 } }));
    // Both instances open their first live stream together: each checks the bank's webhooks
    // then, and exactly one per account must come of it (the race itself is proven in
    // fleet-dashboard.test.ts, where both check at once every time).
    const pages = await Promise.all(
      [a, b].map(async (app, i) => {
        const page = await signIn(app, contexts[i], "viewer");
        await page.getByText("Live", { exact: true }).waitFor({ timeout: 90_000 });
        return page;
      }),
    );
    const live = (await bank.webhooks()).filter((h) => h.WebHookUrl.includes("/api/bank-events/"));
    const perAccount = new Map<string, number>();
    for (const h of live) perAccount.set(h.AccountNumber, (perAccount.get(h.AccountNumber) ?? 0) + 1);
    expect(perAccount.size).toBeGreaterThan(0);
    expect([...perAccount.values()].every((n) => n === 1)).toBe(true);
    const accounts = (await (await pages[0].request.get(`${a.url}/api/accounts`)).json()) as AccountsResponse;
    const [sen, other] = accounts.accounts.filter((x) => x.type === "SEN");
    await bank.deposit(sen.accountNumber, 321.09, "TWO INSTANCES");
    const expected = formatUsd(sen.availableCents + 32_109);
    for (const page of pages) {
      const card = page.getByRole("article", { name: sen.name, exact: true });
      await expect.poll(() => card.innerText(), { timeout: 30_000, interval: 250 }).toContain(expected);
    }

    // Plain streams with each browser's session: one on each instance.
    const cookieA = await sessionCookie(contexts[0]);
    const cookieB = await sessionCookie(contexts[1]);
    const watchA = sseClient(`${a.url}/api/events`, cookieA);
    const cutB = sseClient(`${b.url}/api/events`, cookieB);
    await Promise.all([watchA.opened, cutB.opened]);
    // Each transfer changes two accounts: two notifications.
    const seqs = (m: { data?: string }[]) => m.map((x) => JSON.parse(x.data as string).seq as number);
    await bank.transfer(sen.accountNumber, other.accountNumber, 1.01);
    await cutB.waitFor((m) => m.length === 2);
    const resumeFrom = Math.max(...seqs(cutB.messages));
    expect(cutB.lastId()).toBe(String(resumeFrom));
    cutB.close();

    // Changes while B's stream is down: A's stream sees them as they happen.
    for (const dollars of [2.02, 3.03, 4.04])
      await bank.transfer(sen.accountNumber, other.accountNumber, dollars);
    await watchA.waitFor((m) => m.length === 8);
    const missed = seqs(watchA.messages)
      .filter((s) => s > resumeFrom)
      .sort((x, y) => x - y);
    expect(missed.length).toBe(6);

    for (const [app, cookie] of [
      [b, cookieB],
      [a, cookieA],
    ] as const) {
      const resumed = sseClient(`${app.url}/api/events`, cookie, String(resumeFrom));
      await resumed.opened;
      await resumed.waitFor((m) => m.length >= 6);
      // A little longer: a repeat would arrive now.
      await new Promise((r) => setTimeout(r, 500));
      expect(seqs(resumed.messages)).toEqual(missed);
      resumed.close();
    }
    watchA.close();
  });
});
