// Administrator settings in Chromium against `npm start`: the form kit's field errors before
// submit, a saved change that the page and the server both show, and no access for other roles.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIRST_WAIT, launchChromium, seriousAxeViolations, shot, signIn } from "../helpers/browser.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";

let app: RunningDashboard;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  app = await startDashboard();
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
});

describe("administrator settings", () => {
  it("shows the defaults to an administrator, with no serious accessibility finding", async () => {
    page = await signIn(app, context, "admin");
    await page.goto(`${app.url}/admin/settings`);
    const sen = page.getByLabel("SEN transfers need a second person above (USD)");
    await expect.poll(() => sen.inputValue(), { timeout: FIRST_WAIT }).toBe("250,000.00");
    expect(await page.getByLabel("Incoming wires need two approvers above (USD)").inputValue()).toBe(
      "1,000,000.00",
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "admin-settings");
  });

  it("says what is wrong at the field, before anything is sent", async () => {
    const sen = page.getByLabel("SEN transfers need a second person above (USD)");
    await sen.fill("12.345");
    await sen.blur();
    await expect.poll(() => sen.getAttribute("aria-invalid")).toBe("true");
    const described = (await sen.getAttribute("aria-describedby")) ?? "";
    const error = page.locator(`[id="${described.split(" ").find((id) => id.endsWith("-error"))}"]`);
    expect(await error.innerText()).toBe("Use at most two decimals (whole cents).");
    await page.getByRole("button", { name: "Save limits" }).click();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe(
      "senReleaseThresholdCents",
    );
  });

  it("saves a new limit with the keyboard, and the server keeps it", async () => {
    const sen = page.getByLabel("SEN transfers need a second person above (USD)");
    await sen.fill("$75,000.50");
    await sen.press("Enter");
    await expect.poll(() => page.getByRole("status").innerText()).toContain("Saved.");
    const stored = await page.evaluate(async () => (await fetch("/api/admin/settings")).json());
    expect(stored.settings.senReleaseThresholdCents).toBe(7_500_050);
    await page.reload();
    await expect.poll(() => sen.inputValue(), { timeout: FIRST_WAIT }).toBe("75,000.50");
    expect(await page.getByText(/Last changed by admin@/).count()).toBeGreaterThan(0);
  });

  it("keeps other roles out, in the page and in the API", async () => {
    const approver = await browser.newContext();
    const p = await signIn(app, approver, "approver");
    await p.goto(`${app.url}/admin/settings`);
    expect(await p.getByRole("alert").filter({ hasText: "Only administrators" }).innerText()).toContain(
      "Only administrators can change settings.",
    );
    const status = await p.evaluate(
      async () =>
        (
          await fetch("/api/admin/settings", {
            method: "PUT",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ senReleaseThresholdCents: 1 }),
          })
        ).status,
    );
    expect(status).toBe(403);
    await approver.close();
  });
});
