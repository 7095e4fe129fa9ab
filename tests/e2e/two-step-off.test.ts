// Turning off two-step sign-in on /profile, in Chromium against `npm start`: it asks for the
// password and a current code; a code alone is stopped at the password's field, a wrong password
// is refused by the server at that field, and both right turn it off. No serious axe finding.
import { generate } from "otplib";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIRST_WAIT, launchChromium, seriousAxeViolations, signIn } from "../helpers/browser.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";

let app: RunningDashboard;
let browser: Browser;

beforeAll(async () => {
  app = await startDashboard({ timeoutMs: 900_000 });
  browser = await launchChromium();
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("turning off two-step sign-in", () => {
  it("takes the password and a current code, each refusal at its field", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await signIn(app, context, "preparer");
      await page.goto(`${app.url}/profile`);
      const setUp = page.getByRole("form", { name: "Set up two-step sign-in" });
      await setUp
        .getByLabel("Your password")
        .fill(app.users.find((u) => u.role === "preparer")?.password ?? "", { timeout: FIRST_WAIT });
      await setUp.getByRole("button", { name: "Set up two-step sign-in" }).click();
      const secret = (
        await page.locator("li", { hasText: "set-up key" }).locator("div.font-mono").innerText()
      ).trim();
      await page.getByLabel("Code from your app").fill(await generate({ secret }));
      await page.getByRole("button", { name: "Confirm and turn on" }).click();
      await page.getByText("Two-step sign-in is on.").waitFor({ timeout: FIRST_WAIT });

      const off = page.getByRole("form", { name: "Turn off two-step sign-in" });
      const password = off.getByLabel("Your password");
      const code = off.getByLabel("Current code, to turn it off");
      const turnOff = off.getByRole("button", { name: "Turn off two-step sign-in" });
      // The step after the one that confirmed the set-up: that code is used up.
      const nextCode = () => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

      await code.fill(await nextCode());
      await turnOff.click();
      await expect.poll(() => password.getAttribute("aria-invalid"), { timeout: FIRST_WAIT }).toBe("true");
      expect(await seriousAxeViolations(page)).toEqual([]);

      await password.fill("not my password at all");
      await turnOff.click();
      await off.getByText("is not your current password").waitFor({ timeout: FIRST_WAIT });
      expect(await password.getAttribute("aria-invalid")).toBe("true");
      expect(await page.getByText(/Status: On\b/).count()).toBe(1);
      expect(await seriousAxeViolations(page)).toEqual([]);

      const user = app.users.find((u) => u.role === "preparer");
      await password.fill(user?.password ?? "");
      await code.fill(await nextCode());
      await turnOff.click();
      await page
        .getByRole("status")
        .filter({ hasText: "Two-step sign-in is off." })
        .waitFor({ timeout: FIRST_WAIT });
      expect(await page.getByText(/Status: Off\b/).count()).toBe(1);
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
