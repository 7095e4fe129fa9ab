// Administrator settings in Chromium against `npm start`: the form kit's field errors before
// submit, a lower limit that the page and the server both show at once, a higher one that waits
// for the second demo administrator (its author cannot approve it), and no access for other roles.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SettingsResponse } from "../../lib/dashboard-api/settings.ts";
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
  page = await signIn(app, context, "admin");
});

/** The settings page, loaded: each test opens it, so each also runs alone. */
async function openSettings() {
  await page.goto(`${app.url}/admin/settings`);
  const sen = page.getByLabel("SEN transfers need a second person above (USD)");
  await expect.poll(() => sen.inputValue(), { timeout: FIRST_WAIT }).not.toBe("");
  return sen;
}

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
});

describe("administrator settings", () => {
  it("shows the defaults to an administrator, with no serious accessibility finding", async () => {
    const sen = await openSettings();
    // The default while no one has changed it (the tests below do, and they may run first).
    const held = (await (await page.request.get(`${app.url}/api/admin/settings`)).json()) as SettingsResponse;
    const cents = held.settings.senReleaseThresholdCents;
    expect(await sen.inputValue()).toBe(
      held.changed.senReleaseThresholdCents
        ? `${Math.floor(cents / 100).toLocaleString("en-US")}.${String(cents % 100).padStart(2, "0")}`
        : "250,000.00",
    );
    expect(await page.getByLabel("Incoming wires need two approvers above (USD)").inputValue()).toBe(
      "1,000,000.00",
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "admin-settings");
  });

  it("says what is wrong at the field, before anything is sent", async () => {
    const sen = await openSettings();
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
    const sen = await openSettings();
    await sen.fill("$75,000.50");
    await sen.press("Enter");
    await expect.poll(() => page.getByRole("status").innerText()).toContain("Saved.");
    const stored = await page.evaluate(async () => (await fetch("/api/admin/settings")).json());
    expect(stored.settings.senReleaseThresholdCents).toBe(7_500_050);
    await page.reload();
    await expect.poll(() => sen.inputValue(), { timeout: FIRST_WAIT }).toBe("75,000.50");
    expect(await page.getByText(/Last changed by admin@/).count()).toBeGreaterThan(0);
  });

  it("keeps a higher limit waiting until a second administrator approves it, with the keyboard", async () => {
    // From the limit the test above saves (a lower one applies at once; the same one changes nothing).
    const lowered = await page.request.put(`${app.url}/api/admin/settings`, {
      data: { senReleaseThresholdCents: 7_500_050 },
    });
    expect(lowered.status(), await lowered.text()).toBe(200);
    const sen = await openSettings();
    await sen.fill("300,000.00");
    await sen.press("Enter");
    await expect
      .poll(() => page.getByRole("status").filter({ hasText: "Waiting for a second administrator" }).count())
      .toBe(1);
    // The field shows the limit in force; the raise is listed with who asked and what.
    await expect.poll(() => sen.inputValue()).toBe("75,000.50");
    const table = page.getByRole("table", { name: "Limit changes waiting for approval" });
    const row = table.getByRole("row").filter({ hasText: "SEN release threshold: $75,000.50 → $300,000.00" });
    expect(await row.innerText()).toContain("admin@northwind.example");
    expect(await row.getByText("Waits for another administrator").count()).toBe(1);
    expect(await row.getByRole("button", { name: /^Approve/ }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "admin-settings-pending");
    // Nor can its author approve it through the API.
    const own = await page.evaluate(async () => {
      const { changes } = await (await fetch("/api/admin/changes")).json();
      const r = await fetch(`/api/admin/changes/${changes[0].id}/approve`, { method: "POST" });
      return { status: r.status, body: await r.json() };
    });
    expect(own.status).toBe(403);
    expect(own.body.error.message).toContain("a second administrator must approve it");
    const inForce = await page.evaluate(async () => (await fetch("/api/admin/settings")).json());
    expect(inForce.settings.senReleaseThresholdCents).toBe(7_500_050);

    const secondContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const second = await signIn(app, secondContext, "admin2@northwind.example");
      await second.goto(`${app.url}/admin/settings`);
      const approve = second
        .getByRole("table", { name: "Limit changes waiting for approval" })
        .getByRole("button", { name: "Approve SEN release threshold: $75,000.50 → $300,000.00" });
      await approve.waitFor({ timeout: FIRST_WAIT });
      expect(await seriousAxeViolations(second)).toEqual([]);
      await approve.focus();
      await approve.press("Enter");
      await expect
        .poll(() => second.getByRole("status").filter({ hasText: "Approved and in force" }).count())
        .toBe(1);
      const field = second.getByLabel("SEN transfers need a second person above (USD)");
      await expect.poll(() => field.inputValue()).toBe("300,000.00");
      expect(await second.getByText("No change is waiting for a second administrator.").count()).toBe(1);
      expect(await seriousAxeViolations(second)).toEqual([]);
      const stored = await second.evaluate(async () => (await fetch("/api/admin/settings")).json());
      expect(stored.settings.senReleaseThresholdCents).toBe(30_000_000);
    } finally {
      await secondContext.close();
    }
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
