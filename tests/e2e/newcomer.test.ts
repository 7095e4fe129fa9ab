// What a newcomer meets, in real Chromium against `npm start`, at a desktop width and a phone's
// (390 px): every page loads again and again with nothing in the console (no hydration
// mismatch), fits the screen without sideways scrolling, passes axe; unknown accounts are real
// 404 pages; the idle notice says the setting as it is.
import fs from "node:fs";
import { generate } from "otplib";
import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, daysBetween } from "../../lib/bank-api/dates.ts";
import type { AccountsResponse } from "../../lib/dashboard-api/index.ts";
import { parseCsv } from "../../lib/format/csv.ts";
import { formatDay } from "../../lib/format/dates.ts";
import { historyWindows } from "../../lib/history/pages.ts";
import {
  seriousAxeViolations as axeProblems,
  FIRST_WAIT,
  launchChromium,
  shot,
  sidewaysOverflow,
  signIn,
  unclaimedRowWidth,
} from "../helpers/browser.ts";
import type { RunningDashboard } from "../helpers/dashboard.ts";
import { demoBank, mailedAccountLink } from "../helpers/live.ts";
import { consoleErrors, keepAlive, startPageWalk, WIDTHS } from "../helpers/role-pages.ts";

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

describe("a newcomer's first look", () => {
  let accountNumber: string;
  /** The first account's number, read once (each test may run alone). */
  const firstAccount = async (page: Page) => {
    if (!accountNumber) {
      const res = await page.request.get(`${app.url}/api/accounts`);
      accountNumber = ((await res.json()) as AccountsResponse).accounts[0].accountNumber;
    }
    return accountNumber;
  };

  it("loads every page again and again at desktop and phone widths with no console error, no sideways scrolling and no serious axe finding", {
    timeout: 600_000,
  }, async () => {
    for (const size of WIDTHS) {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      try {
        const page = await signIn(app, context, "admin");
        const stopKeepAlive = keepAlive(app.url, context);
        await firstAccount(page);
        const pages: { name: string; path: string; ready: (p: Page) => Promise<unknown>; loads: number }[] = [
          {
            name: "accounts",
            path: "/accounts",
            ready: (p) => p.getByRole("heading", { name: /All accounts/ }).waitFor({ timeout: FIRST_WAIT }),
            loads: 6,
          },
          {
            name: "account",
            path: `/accounts/${accountNumber}`,
            ready: (p) =>
              p
                .getByText(/^[\d,]+ transactions?$|^No transactions/)
                .first()
                .waitFor({ timeout: FIRST_WAIT }),
            loads: 6,
          },
          {
            name: "profile",
            path: "/profile",
            ready: (p) => p.getByRole("heading", { level: 1 }).waitFor(),
            loads: 2,
          },
          {
            name: "admin",
            path: "/admin",
            ready: (p) => p.getByRole("heading", { level: 1 }).waitFor(),
            loads: 2,
          },
          {
            name: "users",
            path: "/admin/users",
            ready: (p) =>
              p
                .getByText("viewer@northwind.example", { exact: true })
                .first()
                .waitFor({ timeout: FIRST_WAIT }),
            loads: 2,
          },
          {
            name: "settings",
            path: "/admin/settings",
            ready: (p) => p.getByRole("heading", { level: 1 }).waitFor(),
            loads: 2,
          },
          {
            name: "audit",
            path: "/admin/audit",
            ready: (p) => p.getByRole("table").waitFor(),
            loads: 2,
          },
        ];
        // Every load is a fresh one (goto), in one tab (a new tab per load costs Chromium a
        // renderer each), each judged by the console's errors of its own document.
        const tab = await context.newPage();
        const errors = consoleErrors(tab, { perDocument: true });
        for (const target of pages) {
          for (let i = 0; i < target.loads; i++) {
            const res = await tab.goto(`${app.url}${target.path}`);
            expect(res?.status(), `${target.path} at ${size.width} px`).toBe(200);
            await target.ready(tab);
            // Time for late hydration and the data to arrive, where a mismatch would surface.
            await tab.waitForTimeout(500);
            expect(errors, `${target.path} load ${i + 1} at ${size.width} px`).toEqual([]);
            expect(await sidewaysOverflow(tab), `${target.path} at ${size.width} px`).toBeLessThanOrEqual(0);
            if (i === 0) {
              expect(await axeProblems(tab), `${target.path} at ${size.width} px`).toEqual([]);
              await shot(tab, `newcomer-${target.name}-${size.width}`);
            }
          }
        }
        await tab.close();
        stopKeepAlive();
        await page.close();
      } finally {
        await context.close();
      }
    }
  });

  it("stacks each history row at 390 px: description with date and type, amount with the balance after", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await signIn(app, context, "viewer");
      // The account with the most transactions in the last 30 days: more rows than the table
      // draws, so it has a spacer row below them (which once gave the hidden columns a share of
      // the width), whatever the demo data of the day.
      const today = await demoBank(app.dataDir).today();
      const range = `from=${addDays(today, -29)}&to=${today}&order=D`;
      const numbers = (
        (await (await page.request.get(`${app.url}/api/accounts`)).json()) as AccountsResponse
      ).accounts.map((a) => a.accountNumber);
      const counts = await Promise.all(
        numbers.map(async (n) => {
          const r = await page.request.get(`${app.url}/api/accounts/${n}/history?${range}`);
          return r.ok() ? ((await r.json()) as { items: unknown[] }).items.length : 0;
        }),
      );
      const busiest = numbers[counts.indexOf(Math.max(...counts))];
      expect(Math.max(...counts)).toBeGreaterThan(40);
      await page.goto(`${app.url}/accounts/${busiest}?${range}`);
      const table = page.getByRole("table", { name: /Transactions between/ });
      await table.waitFor({ timeout: FIRST_WAIT });
      // Description (with the date and type under it) and Amount (with the balance after) fit the screen.
      for (const name of ["Description", "Amount"]) {
        const box = await table.getByRole("columnheader", { name }).boundingBox();
        expect(box, name).not.toBeNull();
        expect((box?.x ?? 0) + (box?.width ?? 0), name).toBeLessThanOrEqual(390);
      }
      const row = table.locator("tbody tr[data-row-index]").first();
      const measure = () =>
        row.locator("td").evaluateAll((tds) =>
          tds
            .map((td) => {
              const r = td.getBoundingClientRect();
              return { right: r.right, width: r.width, text: (td as HTMLElement).innerText.trim() };
            })
            .filter((c) => c.width > 0),
        );
      await row.waitFor();
      expect(await table.locator("tbody tr:not([data-row-index])").count()).toBeGreaterThan(0);
      const cells = await measure();
      expect(cells).toHaveLength(2);
      expect(await unclaimedRowWidth(row)).toBeLessThanOrEqual(1);
      for (const c of cells) expect(c.right, c.text).toBeLessThanOrEqual(390);
      // The description has room to be read: more than half of the row.
      expect(cells[0].width, JSON.stringify(cells)).toBeGreaterThan(180);
      expect(cells[0].text).toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4} · (Debit|Credit)/);
      expect(cells[1].text).toMatch(/^[−+]\$[\d,]+\.\d{2}\nBalance \$[\d,]+\.\d{2}$/);
      // The balance under the amount fits its column: nothing scrolls sideways.
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await shot(page, "newcomer-history-390", false);
    } finally {
      await context.close();
    }
  });

  it("pages through a long range a month at a time, stops on request, and exports the whole range to CSV", async () => {
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      acceptDownloads: true,
    });
    const stopKeepAlive = keepAlive(app.url, context);
    try {
      const page = await signIn(app, context, "viewer");
      await firstAccount(page);
      const detail = (await (await page.request.get(`${app.url}/api/accounts/${accountNumber}`)).json()) as {
        account: { openDate: string };
      };
      const today = await demoBank(app.dataDir).today();
      // From before the account was opened up to today: more than three months.
      const from = addDays(detail.account.openDate, -10);
      const to = today;
      const total = (
        await Promise.all(
          historyWindows(from, to, "D").map(async (w) => {
            const r = await page.request.get(
              `${app.url}/api/accounts/${accountNumber}/history?from=${w.from}&to=${w.to}&order=D`,
            );
            expect(r.status()).toBe(200);
            return ((await r.json()) as { items: unknown[] }).items.length;
          }),
        )
      ).reduce((a, b) => a + b, 0);
      expect(historyWindows(from, to, "D").length).toBeGreaterThan(2);

      // Every month but the first waits at the network edge until the test lets it through, so
      // reading is still under way when Stop is pressed, however fast the machine.
      let hold = true;
      const held: Route[] = [];
      const pattern = `**/api/accounts/${accountNumber}/history?**`;
      await page.route(pattern, async (route) => {
        if (hold && !route.request().url().includes(`to=${to}`)) held.push(route);
        else await route.continue();
      });
      await page.goto(`${app.url}/accounts/${accountNumber}?from=${from}&to=${to}&order=D`);
      const progress = page.getByText(/^Read [\d,]+ of [\d,]+ days/);
      await progress.waitFor({ timeout: FIRST_WAIT });
      expect(await progress.innerText()).toContain(
        `of ${(daysBetween(from, to) + 1).toLocaleString("en-US")} days`,
      );
      expect(await page.getByText(/before it|nothing earlier exists/).innerText()).toContain(
        formatDay(detail.account.openDate),
      );
      await shot(page, "newcomer-history-paged", false);

      // Stop ends reading the whole range.
      // (Scrolling near the end may already have asked for the next month: then Stop shows at once.)
      const whole = page.getByRole("button", { name: "Read the whole range" });
      const stopButton = page.getByRole("button", { name: "Stop" });
      await expect.poll(async () => (await whole.isVisible()) || (await stopButton.isVisible())).toBe(true);
      if (await whole.isVisible()) await whole.click();
      await stopButton.click();
      await expect.poll(() => progress.innerText()).toContain("stopped");
      expect(await progress.innerText()).toMatch(/^Read 31 of /);
      hold = false;
      for (const r of held) await r.continue().catch(() => {});
      await page.unroute(pattern);

      // The export reads the rest first, then saves every transaction of the range.
      const [download] = await Promise.all([
        page.waitForEvent("download", { timeout: FIRST_WAIT }),
        page.getByRole("button", { name: /Export CSV/ }).click(),
      ]);
      const csv = fs.readFileSync(await download.path(), "utf8").replace(/^\uFEFF/, "");
      expect(parseCsv(csv).length - 1).toBe(total);
      expect(download.suggestedFilename()).toBe(`transactions-${accountNumber}-${from}-to-${to}.csv`);
      await page
        .getByText(`${total.toLocaleString("en-US")} ${total === 1 ? "transaction" : "transactions"}`, {
          exact: true,
        })
        .waitFor({ timeout: FIRST_WAIT });
      expect(await progress.count()).toBe(0);
    } finally {
      stopKeepAlive();
      await context.close();
    }
  });

  it("gives a broken or reversed range in the address the same field error as the form", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await signIn(app, context, "viewer");
      await firstAccount(page);
      await page.goto(`${app.url}/accounts/${accountNumber}?from=2026-11-10&to=2026-11-01&order=D`);
      const from = page.getByLabel("From");
      await expect.poll(() => from.getAttribute("aria-invalid"), { timeout: FIRST_WAIT }).toBe("true");
      const urlError = await page.getByText("The start date must be on or before the end date.").innerText();
      expect(await page.getByRole("main").innerText()).not.toContain("cannot be shown");
      // The same dates typed into the form: the same message.
      await page.goto(`${app.url}/accounts/${accountNumber}`);
      await page.getByLabel("From").waitFor({ timeout: FIRST_WAIT });
      await page.getByLabel("From").fill("2026-11-10");
      await page.getByLabel("To", { exact: true }).fill("2026-11-01");
      await page.getByRole("button", { name: "Show transactions" }).click();
      expect(await page.getByText("The start date must be on or before the end date.").innerText()).toBe(
        urlError,
      );
      expect(await axeProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("sets up two-step sign-in on the profile, with the code's error under its field, and moves it with a proof", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await signIn(app, context, "approver");
      await page.goto(`${app.url}/profile`);
      const user = app.users.find((u) => u.role === "approver");
      const setUp = page.getByRole("form", { name: "Set up two-step sign-in" });
      await setUp.getByLabel("Your password").fill(user?.password ?? "");
      await setUp.getByRole("button", { name: "Set up two-step sign-in" }).click();
      const secret = (
        await page.locator("li", { hasText: "set-up key" }).locator("div.font-mono").innerText()
      ).trim();
      const code = page.getByLabel("Code from your app");
      await code.fill("000000");
      await page.getByRole("button", { name: "Confirm and turn on" }).click();
      await expect.poll(() => code.getAttribute("aria-invalid")).toBe("true");
      await page.getByRole("alert").filter({ hasText: "did not match" }).waitFor();
      await code.fill(await generate({ secret }));
      await page.getByRole("button", { name: "Confirm and turn on" }).click();
      await page.getByText("Two-step sign-in is on.").waitFor();
      expect(await axeProblems(page)).toEqual([]);

      // Moving it to another device takes the password and a current code: the password alone is refused.
      const moveForm = page.getByRole("form", { name: "Move two-step sign-in to another device" });
      const move = moveForm.getByRole("button", { name: "Move to another device" });
      await moveForm.getByLabel("Your password").fill(user?.password ?? "");
      await move.click();
      const currentCode = moveForm.getByLabel("Current code", { exact: true });
      await expect.poll(() => currentCode.getAttribute("aria-invalid")).toBe("true");
      expect(await axeProblems(page)).toEqual([]);
      // The code that turned it on is used up: the next one proves it.
      await currentCode.fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
      await move.click();
      const newSecret = (
        await page.locator("li", { hasText: "set-up key" }).locator("div.font-mono").innerText()
      ).trim();
      expect(newSecret).not.toBe(secret);
      await page.getByLabel("Code from your app").fill(await generate({ secret: newSecret }));
      await page.getByRole("button", { name: "Confirm and turn on" }).click();
      await page.getByText("Two-step sign-in now uses the new device.").waitFor();
      expect(await axeProblems(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("lets an administrator reset a password; the user chooses a new one through the link e-mailed to them", async () => {
    const adminContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const userContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const admin = await signIn(app, adminContext, "admin");
      await admin.goto(`${app.url}/admin/users`);
      await admin.getByRole("button", { name: "Reset password of preparer@northwind.example" }).click();
      const dialog = admin.getByRole("dialog", { name: /Reset the password of preparer@northwind\.example/ });
      await dialog.waitFor();
      await dialog.getByRole("button", { name: "Reset password" }).click();
      // A preparer moves money: the reset waits for a second administrator; no one gets a password.
      await admin
        .getByRole("status")
        .filter({ hasText: "Waiting for a second administrator" })
        .waitFor({ timeout: FIRST_WAIT });
      const secondContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const second = await signIn(app, secondContext, "admin2@northwind.example");
      await second.goto(`${app.url}/admin/users`);
      await second.getByRole("button", { name: /^Approve preparer@northwind\.example/ }).click();
      await second
        .getByRole("status")
        .filter({ hasText: "Approved and in force" })
        .waitFor({ timeout: FIRST_WAIT });
      expect(await second.getByText("Must choose a new password").count()).toBeGreaterThan(0);
      expect(await second.locator("code").count()).toBe(0);
      expect(await axeProblems(second)).toEqual([]);
      await shot(second, "newcomer-users-reset-390");
      await secondContext.close();

      // The link reaches the person's own mail box (npm start: the bank's sandbox mail box).
      const link = await mailedAccountLink(app.dataDir, "preparer@northwind.example");
      const page = await userContext.newPage();
      await page.goto(link);
      const choose = page.getByRole("form", { name: "Choose your password" });
      await choose.getByLabel("New password", { exact: true }).fill("a brand new passphrase");
      await choose.getByLabel("New password again").fill("a brand new passphrase");
      expect(await axeProblems(page)).toEqual([]);
      await shot(page, "newcomer-account-link-390");
      await choose.getByRole("button", { name: "Save my password" }).click();
      await page
        .getByRole("status")
        .filter({ hasText: "Your password is set" })
        .waitFor({ timeout: FIRST_WAIT });
      // The link worked once: opened again from the e-mail (a new tab), it says so.
      const again = await userContext.newPage();
      await again.goto(link);
      await again.getByRole("alert").filter({ hasText: "no longer works" }).waitFor({ timeout: FIRST_WAIT });
      await again.close();
      await page.goto(`${app.url}/sign-in`);
      await page.getByRole("button", { name: "Sign in" }).waitFor();
      await page.getByLabel("Work e-mail").fill("preparer@northwind.example");
      await page.getByLabel("Password").fill("a brand new passphrase");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/accounts/, { timeout: FIRST_WAIT });
      await page.getByRole("heading", { name: "Accounts and balances" }).waitFor();

      // Later, from the profile: a wrong current password is named at its field; the right one
      // changes it, the form empties and says so, and the next sign-in takes the new one.
      await page.goto(`${app.url}/profile`);
      const change = page.getByRole("form", { name: "Change your password" });
      await change.getByLabel("Current password").fill("not my password at all");
      await change.getByLabel("New password", { exact: true }).fill("another new passphrase");
      await change.getByLabel("New password again").fill("another new passphrase");
      await change.getByRole("button", { name: "Save the new password" }).click();
      await change.getByText("is not your current password").waitFor({ timeout: FIRST_WAIT });
      await change.getByLabel("Current password").fill("a brand new passphrase");
      await change.getByRole("button", { name: "Save the new password" }).click();
      await page.getByRole("status").filter({ hasText: "Your password was changed." }).waitFor();
      expect(await change.getByLabel("Current password").inputValue()).toBe("");
      expect(await axeProblems(page)).toEqual([]);
      await shot(page, "newcomer-profile-password-390");
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(/\/sign-in/, { timeout: FIRST_WAIT });
      await page.getByLabel("Work e-mail").fill("preparer@northwind.example");
      await page.getByLabel("Password").fill("another new passphrase");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/accounts/, { timeout: FIRST_WAIT });
    } finally {
      await adminContext.close();
      await userContext.close();
    }
  });

  it("answers an invalid or unknown account with a real 404 page in plain words and no retry", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await signIn(app, context, "viewer");
      for (const bad of ["abc", "0000000000"]) {
        const res = await page.goto(`${app.url}/accounts/${bad}`);
        expect(res?.status(), bad).toBe(404);
        await page.getByRole("heading", { level: 1, name: "Account not found" }).waitFor();
        expect(await page.getByRole("button", { name: /Try again/ }).count()).toBe(0);
        expect(await page.getByRole("main").innerText()).not.toContain("Some fields need attention");
        expect(await axeProblems(page)).toEqual([]);
      }
      await shot(page, "newcomer-account-404", false);
    } finally {
      await context.close();
    }
  });

  it("runs only the product's scripts: an inline script or handler added to the page without the response's nonce is refused", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await signIn(app, context, "viewer");
      const errors = consoleErrors(page);
      await page.goto(`${app.url}/accounts`);
      await page.getByRole("heading", { name: /All accounts/ }).waitFor({ timeout: FIRST_WAIT });
      // The product's own scripts ran (the page is interactive) and none of them was refused.
      expect(errors).toEqual([]);
      const injected = () =>
        page.evaluate(() => (window as unknown as { injected?: string }).injected ?? null);
      await page.evaluate(() => {
        const w = window as unknown as { violations: string[] };
        w.violations = [];
        document.addEventListener("securitypolicyviolation", (e) => w.violations.push(e.effectiveDirective));
        // What an injected piece of markup would do: an inline script, and an inline handler.
        const script = document.createElement("script");
        script.textContent = "window.injected = 'inline script ran'";
        document.body.append(script);
        const box = document.createElement("div");
        box.innerHTML = `<img alt="" src="data:," onerror="window.injected = 'handler ran'">`;
        document.body.append(box);
      });
      // An inline script runs as it is added, or never.
      expect(await injected()).toBeNull();
      // Each is refused with a violation report (the handler's once its image fails).
      await expect
        .poll(() =>
          page.evaluate(() => [...(window as unknown as { violations: string[] }).violations].sort()),
        )
        .toEqual(["script-src-attr", "script-src-elem"]);
      expect(await injected()).toBeNull();
      expect(errors.join("\n")).toMatch(/Content Security Policy/);
    } finally {
      await context.close();
    }
  });

  it("keeps what was typed into the sign-in form before the page hydrated, and signs in with it", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      const errors = consoleErrors(page);
      // A slow machine: the page's scripts arrive only when the test lets them.
      let release: () => void = () => {};
      const gate = new Promise<void>((r) => {
        release = r;
      });
      await page.route("**/_next/static/chunks/**", async (route) => {
        await gate;
        await route.continue();
      });
      const viewer = app.users.find((u) => u.role === "viewer") as { email: string; password: string };
      // The HTML arrives; the scripts it names are held back.
      await page.goto(`${app.url}/sign-in`, { waitUntil: "commit" });
      await page.getByLabel("Work e-mail").waitFor();
      await page.getByLabel("Work e-mail").fill(viewer.email);
      await page.getByLabel("Password").fill(viewer.password);
      // An early Enter posts nothing (the password never lands in the address).
      await page.getByLabel("Password").press("Enter");
      expect(page.url()).not.toContain("password");
      release();
      const button = page.getByRole("button", { name: "Sign in" });
      await expect.poll(() => button.isEnabled(), { timeout: FIRST_WAIT }).toBe(true);
      expect(await page.getByLabel("Work e-mail").inputValue()).toBe(viewer.email);
      expect(await page.getByLabel("Password").inputValue()).toBe(viewer.password);
      await button.click();
      await page.waitForURL(/\/accounts/, { timeout: FIRST_WAIT });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("tells a signed-out user the idle limit as it is set (40 seconds, not a rounded minute)", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${app.url}/sign-in?reason=idle`);
      const notice = page.getByRole("status").filter({ hasText: /signed out/ });
      expect(await notice.innerText()).toContain("after 40 seconds without activity");
    } finally {
      await context.close();
    }
  });

  it("has an accessibility check that finds what it must: each serious or critical fault of a page made with them", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.setContent(
        '<html><body><main><img src="x.png"><button></button><p style="color:#eee;background:#fff">faint</p></main></body></html>',
      );
      const found = (await axeProblems(page)).map((v) => v.split(" ")[0]);
      expect(found).toEqual(
        expect.arrayContaining(["button-name", "color-contrast", "image-alt", "html-has-lang"]),
      );
    } finally {
      await context.close();
    }
  });
});
