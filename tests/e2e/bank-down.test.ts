// The bank goes down under a signed-in person: the page says plainly that the bank cannot be
// reached as soon as its first read fails (no retry behind a loading skeleton first, no internal
// address or system error code), and the header's "Live" status turns amber while it lasts.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_BUNDLE } from "../../scripts/bank-build.ts";
import { FIRST_WAIT, launchChromium, seriousAxeViolations, shot, signIn } from "../helpers/browser.ts";
import { childPid, type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";

describe("the bank down under a signed-in person", () => {
  let app: RunningDashboard;
  let browser: Browser;
  beforeAll(async () => {
    app = await startDashboard({
      env: {
        // The crashed bank stays down for the length of the test.
        START_RESTART_PAUSE_MS: "600000",
      },
      via: "node",
      timeoutMs: 900_000,
    });
    browser = await launchChromium();
  }, 960_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("says the bank cannot be reached from the first failed read and turns the Live status amber", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signIn(app, context, "admin");
    await page.getByText("Total available").first().waitFor({ timeout: FIRST_WAIT });
    await page.getByText("Live", { exact: true }).waitFor({ timeout: FIRST_WAIT });

    const bankPid = childPid(app.pid, BANK_BUNDLE);
    expect(bankPid).toBeTruthy();
    process.kill(bankPid as number, "SIGKILL");

    // A read the browser sends again after its first failure is a retry: the person waits behind it.
    const failed = new Set<string>();
    const retried: string[] = [];
    page.on("response", (r) => {
      if (r.status() === 503 && new URL(r.url()).pathname.startsWith("/api/")) failed.add(r.url());
    });
    page.on("request", (r) => {
      if (failed.has(r.url())) retried.push(r.url());
    });
    await page.reload();
    const message = page.getByText(/The bank cannot be reached/).first();
    await message.waitFor({ timeout: FIRST_WAIT });
    expect(failed.size).toBeGreaterThan(0);
    expect(retried).toEqual([]);
    const status = page.getByRole("status").filter({ hasText: "Bank unreachable" });
    await status.waitFor({ timeout: FIRST_WAIT });
    expect(await page.getByText("Live", { exact: true }).count()).toBe(0);
    const dot = status.locator("span[aria-hidden=true]");
    expect(await dot.getAttribute("class")).toContain("bg-amber-400");
    const text = await page.locator("body").innerText();
    expect(text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|connect /);
    await shot(page, "bank-down");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});
