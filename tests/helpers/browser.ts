// Real Chromium for the browser tests: launched as this closed, root-run machine needs it,
// signed in through the sign-in form as a demo user, and checked with axe.
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import { chromiumPath } from "../../scripts/chromium.ts";
import type { RunningDashboard } from "./dashboard.ts";

export const CHROMIUM = chromiumPath();
export const SHOTS = path.resolve("test-results/screenshots");
/** The first page of a fresh product opens its databases: allow it time. */
export const FIRST_WAIT = 90_000;

export function launchChromium(): Promise<Browser> {
  fs.mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      // One renderer per site and context rather than per tab: a test opens a tab for each page it
      // checks, and each new renderer cost Chromium about half a CPU-second (40 page checks with
      // axe: 39.5 CPU-s, 26.0 with this flag, 29 Nov).
      "--process-per-site",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

export const shot = (page: Page, name: string, fullPage = true) =>
  page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });

/** Signs a demo user in through the form, in a new page of the context: the first of a role, or by e-mail. */
export async function signIn(
  app: RunningDashboard,
  context: BrowserContext,
  roleOrEmail: string,
  timeout = FIRST_WAIT,
): Promise<Page> {
  const role = roleOrEmail;
  const user = app.users.find((u) => u.role === roleOrEmail || u.email === roleOrEmail);
  if (!user) throw new Error(`no demo ${role} in the npm start output:\n${app.output()}`);
  const page = await context.newPage();
  await page.goto(`${app.url}/sign-in`);
  await page.getByRole("button", { name: "Sign in" }).waitFor();
  await page.getByLabel("Work e-mail").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/accounts/, { timeout });
  return page;
}

/** axe's serious and critical findings on the page as it is now, one line each (none is the goal). */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Colours are judged as they settle: a button clicked a moment ago may still be fading between
  // its two colours (transition-colors), and axe would read the blend. Finite animations and
  // transitions are awaited (a spinner's endless one is not), for two seconds at most.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  );
  // After a client-side navigation Next streams the new page's metadata in after its content, so
  // for a moment the document may have no <title>: judged once it has one (a page that never gets
  // one is still reported, two seconds on).
  await page.waitForFunction(() => document.title !== "", null, { timeout: 2_000 }).catch(() => undefined);
  // In the page itself (the product's pages hold no frames from another origin, which is all the
  // default mode adds, through a second blank page) and with only the violations' nodes listed:
  // the same findings in a quarter of the time (240 against 940 ms a page).
  const r = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ["violations"] })
    .analyze();
  return r.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/**
 * The width of a table that none of its row's drawn cells takes (0 when they fill it): a column
 * that exists without a drawn cell, such as one a spacer row spans where the phone hides it,
 * takes a share of a fixed table's width and leaves the visible cells squeezed.
 */
export function unclaimedRowWidth(row: Locator): Promise<number> {
  return row.evaluate((tr) => {
    const table = (tr as HTMLElement).closest("table") as HTMLTableElement;
    const spacing = Number.parseFloat(getComputedStyle(table).borderSpacing) || 0;
    const cells = [...tr.children].filter((c) => (c as HTMLElement).getBoundingClientRect().width > 0);
    const taken = cells.reduce((sum, c) => sum + (c as HTMLElement).getBoundingClientRect().width, 0);
    return Math.round(table.getBoundingClientRect().width - taken - spacing * (cells.length + 1));
  });
}

/**
 * How far anything scrolls sideways: the page past the window's right edge, or a box inside it
 * (a table in a scrolling frame) past its own; 0 when nothing does.
 */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    let worst = document.documentElement.scrollWidth - window.innerWidth;
    for (const el of document.querySelectorAll<HTMLElement>("main *")) {
      const x = getComputedStyle(el).overflowX;
      if ((x === "auto" || x === "scroll") && el.clientWidth > 0)
        worst = Math.max(worst, el.scrollWidth - el.clientWidth - 1);
    }
    return worst;
  });
}

/**
 * The header's controls that are out of reading order (top to bottom, then left to right within
 * a row): Tab must visit them as they are read. Empty when in order.
 */
export function headerOutOfOrder(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const els = [...document.querySelectorAll<HTMLElement>("header a[href], header button")].filter(
      (el) => el.getClientRects().length > 0,
    );
    const out: string[] = [];
    for (let i = 1; i < els.length; i++) {
      const a = els[i - 1].getBoundingClientRect();
      const b = els[i].getBoundingClientRect();
      const nextRow = b.top >= a.bottom - 4;
      const sameRow =
        Math.abs(b.top + b.height / 2 - (a.top + a.height / 2)) < Math.max(a.height, b.height) / 2;
      if (!nextRow && !(sameRow && b.left >= a.left))
        out.push(
          `"${els[i].textContent?.trim()}" comes after "${els[i - 1].textContent?.trim()}" in tab order but is read before it`,
        );
    }
    return out;
  });
}
