// The pages the approver and the administrator may use, in real Chromium against `npm start`, at a desktop width and a
// phone's: exactly their header links, each page with no console error, no sideways scrolling and
// no serious axe finding, and every other page saying in words that it is not theirs
// (tests/helpers/role-pages.ts; the other roles have a file of their own, run beside this one).
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { launchChromium } from "../helpers/browser.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";
import { checkRolePages } from "../helpers/role-pages.ts";

let app: RunningDashboard;
let browser: Browser;

beforeAll(async () => {
  app = await startDashboard({ env: { SESSION_IDLE_SECONDS: "40", SESSION_IDLE_WARNING_SECONDS: "20" } });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("each role's pages", () => {
  it("shows the approver and the administrator exactly the pages they may use, each at desktop and phone widths with no console error, no sideways scrolling and no serious axe finding", {
    timeout: 1_200_000,
  }, async () => {
    await checkRolePages(app, browser, ["approver", "admin"]);
  });
});
