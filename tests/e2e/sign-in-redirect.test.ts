// Sign-in sends the browser back where it came from only on the dashboard's own origin, in real
// Chromium against `npm start`: addresses that look like paths but that a browser reads as
// another host (a tab or a backslash after the first slash) end on the dashboard instead.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIRST_WAIT, launchChromium } from "../helpers/browser.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";

let app: RunningDashboard;
let browser: Browser;

beforeAll(async () => {
  app = await startDashboard();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("sign-in's destination", () => {
  it.each(["/%09/evil.example/", "/%09%5cevil.example/", "/%5c%5cevil.example/", "%09//evil.example/"])(
    "stays on the dashboard's origin after signing in with callbackUrl=%s",
    async (callbackUrl) => {
      const context = await browser.newContext();
      try {
        // Another site, answered here: were the browser sent there, it would arrive and stay.
        await context.route(
          (u) => u.hostname.endsWith("evil.example"),
          (route) =>
            route.fulfill({ status: 200, contentType: "text/html", body: "<title>Elsewhere</title>" }),
        );
        const user = app.users.find((u) => u.role === "viewer");
        if (!user) throw new Error("no demo viewer");
        const page = await context.newPage();
        await page.goto(`${app.url}/sign-in?callbackUrl=${callbackUrl}`);
        await page.getByRole("button", { name: "Sign in" }).waitFor({ timeout: FIRST_WAIT });
        await page.getByLabel("Work e-mail").fill(user.email);
        await page.getByLabel("Password").fill(user.password);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForURL((u) => !u.pathname.startsWith("/sign-in"), { timeout: FIRST_WAIT });
        await page.waitForLoadState("load");
        expect(new URL(page.url()).origin).toBe(new URL(app.url).origin);
        await page.getByRole("heading", { level: 1 }).first().waitFor({ timeout: FIRST_WAIT });
      } finally {
        await context.close();
      }
    },
  );
});
