// What each role meets on the pages it may use, at a desktop width and a phone's: the header's
// links are exactly its pages, each page loads with no console error, no sideways scrolling and no
// serious axe finding, and a page it may not use says so in words. Shared by the browser files that
// each take some of the roles, so they run side by side.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  seriousAxeViolations as axeProblems,
  FIRST_WAIT,
  launchChromium,
  shot,
  sidewaysOverflow,
  signIn,
} from "./browser.ts";
import { type RunningDashboard, startDashboard } from "./dashboard.ts";

export const WIDTHS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/**
 * Every console error and uncaught exception of a page, as text. With `perDocument`, those of the
 * document now shown only: the list empties when the tab commits to a new page, so one tab can
 * load page after page and each is judged on its own load.
 */
export function consoleErrors(page: Page, opts: { perDocument?: boolean } = {}): string[] {
  const errors: string[] = [];
  if (opts.perDocument)
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) errors.length = 0;
    });
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => errors.push(`exception: ${e.message}`));
  return errors;
}

/**
 * Loading pages is not activity: while a long step runs, the session reports activity every 5 s,
 * as the idle guard does when someone works, so a short idle limit does not end it.
 */
export function keepAlive(appUrl: string, context: BrowserContext): () => void {
  const report = async () => {
    const csrf = (await (await context.request.get(`${appUrl}/api/auth/csrf`)).json()) as {
      csrfToken: string;
    };
    await context.request.post(`${appUrl}/api/auth/session`, {
      data: { csrfToken: csrf.csrfToken, data: {} },
    });
  };
  const timer = setInterval(() => void report().catch(() => {}), 5000);
  return () => clearInterval(timer);
}

/** `npm start` as the page-walking files use it: a 40-second idle limit, kept alive while pages load. */
export const startPageWalk = () =>
  startDashboard({ env: { SESSION_IDLE_SECONDS: "40", SESSION_IDLE_WARNING_SECONDS: "20" } });

export const ROLES = ["viewer", "preparer", "approver", "admin"] as const;

/** Each of `roles` through every page it may use, at both widths, and the pages it may not. */
export async function checkRolePages(
  app: RunningDashboard,
  browser: Browser,
  roles: readonly (typeof ROLES)[number][],
): Promise<void> {
  // Written out by hand, not read from the code under test: the header links each role sees,
  // in order, and the pages behind them (the new-account form is reached from the accounts page).
  const ALL = ROLES;
  const REFUSAL = /This page is for|Only administrators|Only approvers|Your role cannot/;
  const SENDERS = ["preparer", "approver", "admin"] as const;
  const PAGES: { path: string; link?: string; roles: readonly string[] }[] = [
    { path: "/accounts", link: "Accounts", roles: ALL },
    { path: "/payments", link: "Payments", roles: ALL },
    { path: "/wire-summaries", link: "Wire summaries", roles: ALL },
    { path: "/statements", link: "Statements", roles: ALL },
    { path: "/transfers/new", link: "Send", roles: SENDERS },
    { path: "/wires/new", link: "Wire", roles: SENDERS },
    { path: "/drafts", link: "Drafts", roles: SENDERS },
    { path: "/scheduled", link: "Scheduled", roles: ALL },
    { path: "/beneficiaries", link: "Beneficiaries", roles: SENDERS },
    { path: "/approvals", link: "Approvals", roles: ["approver", "admin"] },
    { path: "/incoming-wires", link: "Incoming wires", roles: ["approver", "admin"] },
    { path: "/alerts", link: "Alerts", roles: ALL },
    { path: "/webhooks", link: "Webhooks", roles: ALL },
    { path: "/admin", link: "Administration", roles: ["admin"] },
    { path: "/mail", link: "Mail", roles: ALL },
    { path: "/profile", link: "Profile", roles: ALL },
    { path: "/accounts/new-sen", roles: SENDERS },
  ];
  const ADMIN_PAGES = [
    { path: "/admin/settings", roles: ["admin"] },
    { path: "/admin/audit", roles: ["admin"] },
    { path: "/admin/policies", roles: ["admin"] },
    { path: "/admin/users", roles: ["admin"] },
    { path: "/admin/integration-tokens", roles: ["admin"] },
  ];
  for (const role of roles) {
    for (const size of WIDTHS) {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      try {
        const page = await signIn(app, context, role);
        const stopKeepAlive = keepAlive(app.url, context);
        // On a phone the links are behind the menu button.
        const menu = page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: /Menu/ });
        if (await menu.isVisible()) await menu.click();
        const links = await page.getByRole("navigation", { name: "Main" }).getByRole("link").allInnerTexts();
        expect(
          // The Approvals link carries the count of what waits ("Approvals 3 waiting").
          links.map((l) => l.replace(/\s*\d+\s+waiting$/, "").trim()),
          `${role}'s header`,
        ).toEqual(PAGES.filter((p) => p.link && p.roles.includes(role)).map((p) => p.link));
        // At a desktop width every role's links fit one row (an administrator's once wrapped).
        if (size.width === WIDTHS[0].width)
          expect(
            await page
              .getByRole("navigation", { name: "Main" })
              .getByRole("link")
              .evaluateAll((ls) => new Set(ls.map((l) => Math.round(l.getBoundingClientRect().top))).size),
            `${role}'s header rows at ${size.width} px`,
          ).toBe(1);
        // The pages behind /admin too: an administrator reads them on a phone as well. Each is a
        // fresh load in one tab (a new tab per page costs Chromium a renderer each), judged by the
        // console's errors of its own document.
        const tab = await context.newPage();
        const errors = consoleErrors(tab, { perDocument: true });
        for (const target of [...PAGES, ...ADMIN_PAGES].filter((p) => p.roles.includes(role))) {
          const where = `${target.path} as ${role} at ${size.width} px`;
          const res = await tab.goto(`${app.url}${target.path}`);
          expect(res?.status(), where).toBe(200);
          await tab.getByRole("heading", { level: 1 }).first().waitFor({ timeout: FIRST_WAIT });
          // Time for the data to arrive and late hydration, where a mismatch would surface.
          await tab.waitForLoadState("load");
          await tab.waitForTimeout(800);
          expect(await tab.getByText(REFUSAL).count(), where).toBe(0);
          expect(errors, where).toEqual([]);
          expect(await sidewaysOverflow(tab), where).toBeLessThanOrEqual(0);
          expect(await axeProblems(tab), where).toEqual([]);
          await shot(tab, `role-${role}${target.path.replaceAll("/", "-")}-${size.width}`);
        }
        await tab.close();
        // A page the role may not use explains that in words instead, under the page's own
        // heading (checked once, at desktop); the admin pages behind /admin are checked too.
        if (size.width === WIDTHS[0].width)
          for (const target of [...PAGES, ...ADMIN_PAGES].filter((p) => !p.roles.includes(role))) {
            await page.goto(`${app.url}${target.path}`);
            await expect
              .poll(() => page.getByText(REFUSAL).count(), { message: `${target.path} as ${role}` })
              .toBeGreaterThan(0);
            expect(
              await page.getByRole("heading", { level: 1 }).allInnerTexts(),
              `${target.path} as ${role}: its heading`,
            ).toHaveLength(1);
          }
        stopKeepAlive();
        await page.close();
      } finally {
        await context.close();
      }
    }
  }
}

/**
 * A browser file's whole suite for some of the roles: its own `npm start` (a 40-second idle limit,
 * kept alive while pages load) and Chromium, and one test that walks the roles' pages.
 */
export function rolePagesSuite(roles: readonly (typeof ROLES)[number][], who: string): void {
  let app: RunningDashboard;
  let browser: Browser;
  beforeAll(async () => {
    app = await startPageWalk();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });
  describe("each role's pages", () => {
    it(`shows ${who} exactly the pages they may use, each at desktop and phone widths with no console error, no sideways scrolling and no serious axe finding`, {
      timeout: 1_200_000,
    }, async () => {
      await checkRolePages(app, browser, roles);
    });
  });
}
