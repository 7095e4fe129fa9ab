// The approvals inbox in real Chromium against the product as `npm start` starts it: drafts made
// through the dashboard's API as a preparer and an approver, incoming wires through the bank's
// /sandbox. Each role sees only what it may act on; the keys alone move, select and decide; one
// confirmation lists every item and the total, and each item gets its own result, one of them a
// refusal by the bank while the others go through; the count in the navigation moves when the bank
// receives a wire, with the page left open; the phone menu works by keyboard. Axe at 1440 and 390.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import type { AccountsResponse, InboxResponse } from "../../lib/dashboard-api/index.ts";
import {
  FIRST_WAIT,
  seriousAxeViolations,
  shot,
  sidewaysOverflow,
  unclaimedRowWidth,
} from "../helpers/browser.ts";
import { browserWorld } from "../helpers/browser-world.ts";

// The digest looks every 2 s, so its test waits for the setting's minute, not for the timer.
const world = browserWorld({
  env: { BANK_SETTLE_AFTER_SECONDS: "86400", APPROVAL_DIGEST_CHECK_SECONDS: "2" },
});

type Session = { context: BrowserContext; page: Page };
const signIn = world.session;

const inbox = (page: Page) => world.api<InboxResponse>(page, "/api/inbox");

async function makeWireDraft(page: Page, from: string, amount: string, payee: string): Promise<string> {
  const r = await page.request.post(`${world.app.url}/api/wires`, {
    data: {
      idempotencyKey: crypto.randomUUID(),
      originator_account_number: from,
      amount,
      beneficiary_name: payee,
      beneficiary_account_number: "88001",
      beneficiary_address1: "1 Quay Street",
      receiving_bank_routing_id: "021000021",
    },
  });
  expect(r.status(), await r.text()).toBe(200);
  return ((await r.json()) as { draft: { id: string } }).draft.id;
}

let serial = 0;
async function incomingWire(account: string, amount: number) {
  const originatorName = `E2E INBOX ORIG ${++serial}`;
  const r = await world.demo.sandbox<{ payment_id: string }>("/sandbox/incoming-wires", {
    accountNumber: account,
    amount,
    originatorName,
    originatorToBeneficiaryInfo: `E2E INBOX INVOICE ${serial}`,
  });
  return { id: r.payment_id, originatorName };
}

/** Moves the focus with j and k alone until the row of `key` is the focused one. */
async function focusWithKeys(page: Page, key: string) {
  const rows = page.locator("tbody tr[data-key]");
  const keys = await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-key")));
  const target = keys.indexOf(key);
  expect(target, `${key} is listed`).toBeGreaterThanOrEqual(0);
  const currentKey = await page.locator('tbody tr[aria-current="true"]').getAttribute("data-key");
  let at = keys.indexOf(currentKey ?? "");
  // The first j puts focus on the focused row itself.
  if (!(await page.evaluate(() => !!document.activeElement?.closest("tr[data-key]")))) {
    await page.keyboard.press("j");
    at = keys.indexOf((await page.locator('tbody tr[aria-current="true"]').getAttribute("data-key")) ?? "");
  }
  while (at < target) {
    await page.keyboard.press("j");
    at++;
  }
  while (at > target) {
    await page.keyboard.press("k");
    at--;
  }
  await expect.poll(() => page.locator('tbody tr[aria-current="true"]').getAttribute("data-key")).toBe(key);
  expect(await page.evaluate(() => document.activeElement?.getAttribute("data-key"))).toBe(key);
}

describe("the approvals inbox, in Chromium", () => {
  let preparer: Session;
  let approver: Session;
  let admin: Session;
  let dda: string;
  let ddaName = "";
  /** The SEN draft's destination, one of the customer's own accounts, as the pages name it. */
  let senTo = "";
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    [preparer, approver, admin] = [await signIn("preparer"), await signIn("approver"), await signIn("admin")];
    const accounts = (await (
      await preparer.page.request.get(`${world.app.url}/api/accounts`)
    ).json()) as AccountsResponse;
    const ddaAccount = accounts.accounts.find((a) => a.type === "DDA") as {
      accountNumber: string;
      name: string;
      availableCents: number;
    };
    dda = ddaAccount.accountNumber;
    ddaName = ddaAccount.name;
    ids.small = await makeWireDraft(preparer.page, dda, "1,200.00", "E2E INBOX SMALL PAYEE");
    // Above the release two-approver limit: this approval is the first of two and sends nothing.
    ids.tooMuch = await makeWireDraft(preparer.page, dda, "1,000,100.00", "E2E INBOX TOO MUCH PAYEE");
    // More than its account holds, under the two-approver limit: the bank refuses it at release.
    // A SEN transfer above the release threshold is a draft; the administrator lowers the threshold
    // (a lowering applies at once) so that the poorer SEN account's transfer is one.
    const sen = accounts.accounts
      .filter((a) => a.type === "SEN")
      .sort((x, y) => x.availableCents - y.availableCents);
    if (sen.length >= 2 && sen[0].availableCents + 100_000 <= 100_000_000) {
      const lowered = await admin.page.request.put(`${world.app.url}/api/admin/settings`, {
        data: { senReleaseThresholdCents: 100_000 },
      });
      expect(lowered.status(), await lowered.text()).toBe(200);
      const r = await preparer.page.request.post(`${world.app.url}/api/transfers`, {
        data: {
          idempotencyKey: crypto.randomUUID(),
          AccountNumberFrom: sen[0].accountNumber,
          AccountNumberTo: sen[1].accountNumber,
          Amount: ((sen[0].availableCents + 100_000) / 100).toFixed(2),
        },
      });
      expect(r.status(), await r.text()).toBe(200);
      const out = (await r.json()) as { outcome: string; draft?: { id: string } };
      expect(out.outcome).toBe("draft");
      ids.noFunds = out.draft?.id as string;
      senTo = `${sen[1].name} ••••${sen[1].accountNumber.slice(-4)}`;
    }
    ids.approversOwn = await makeWireDraft(approver.page, dda, "800.00", "E2E INBOX APPROVERS OWN");
    const w1 = await incomingWire(dda, 2_500);
    const w2 = await incomingWire(dda, 3_100);
    ids.w1 = w1.id;
    ids.w2 = w2.id;
  }, 120_000);

  afterAll(async () => {
    for (const s of [preparer, approver, admin]) await s?.context.close();
  });

  it("an administrator sets the approval digest to one minute on the settings page", async () => {
    const { page } = admin;
    await page.goto(`${world.app.url}/admin/settings`);
    const field = page.getByLabel("E-mail approvers what has waited longer than (minutes)");
    await expect.poll(() => field.inputValue(), { timeout: FIRST_WAIT }).toBe("60");
    await field.fill("0");
    await field.press("Enter");
    await page.getByText("Enter whole minutes, from 1 to 10,080 (a week)").waitFor();
    await field.fill("1");
    await field.press("Enter");
    await expect.poll(() => page.getByRole("status").first().innerText()).toContain("Saved.");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it("lists for each person only what they may act on, never their own drafts", async () => {
    const forApprover = await inbox(approver.page);
    const keys = forApprover.items.map((i) => i.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        `draft:${ids.small}`,
        `draft:${ids.tooMuch}`,
        `wire:${ids.w1}`,
        `wire:${ids.w2}`,
      ]),
    );
    expect(keys).not.toContain(`draft:${ids.approversOwn}`);
    const forAdmin = (await inbox(admin.page)).items.map((i) => i.key);
    expect(forAdmin).toContain(`draft:${ids.approversOwn}`);
    const forPreparer = await inbox(preparer.page);
    expect(forPreparer).toMatchObject({ count: 0, mayRelease: false, mayDecideWires: false });

    // The preparer's page says why nothing is there; the link is not in their navigation.
    await preparer.page.goto(`${world.app.url}/approvals`);
    await preparer.page.getByText("Only approvers and administrators").waitFor({ timeout: FIRST_WAIT });
    expect(
      await preparer.page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: /Approvals/ })
        .count(),
    ).toBe(0);
    expect(await seriousAxeViolations(preparer.page)).toEqual([]);

    const page = approver.page;
    await page.goto(`${world.app.url}/approvals`);
    await page.locator(`tr[data-key="draft:${ids.small}"]`).waitFor({ timeout: FIRST_WAIT });
    expect(await page.locator(`tr[data-key="draft:${ids.approversOwn}"]`).count()).toBe(0);
    // The navigation and the page agree on the count.
    const badge = page
      .getByRole("navigation", { name: "Main" })
      .locator('a[href="/approvals"] [data-inbox-count]');
    await expect.poll(() => badge.getAttribute("data-inbox-count")).toBe(String(forApprover.count));
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "approvals-approver-1440");
  });

  it("moves with j and k, selects with x, and decides several at once: one confirmation, a result per item, one refused by the bank", async () => {
    const page = approver.page;
    await page.goto(`${world.app.url}/approvals`);
    await page.locator(`tr[data-key="wire:${ids.w1}"]`).waitFor({ timeout: FIRST_WAIT });
    const chosen = [`draft:${ids.small}`, `draft:${ids.tooMuch}`, `wire:${ids.w1}`];
    if (ids.noFunds) chosen.push(`draft:${ids.noFunds}`);
    for (const key of chosen) {
      await focusWithKeys(page, key);
      await page.keyboard.press("x");
      await expect
        .poll(() => page.locator(`tr[data-key="${key}"] input[type=checkbox]`).isChecked())
        .toBe(true);
    }
    // k moves back up; x again unselects and selects.
    await page.keyboard.press("k");
    await page.keyboard.press("x");
    await page.keyboard.press("x");
    expect(await page.locator("tbody input[type=checkbox]:checked").count()).toBe(chosen.length);

    await page.keyboard.press("a");
    const dialog = page.getByRole("dialog", { name: `Approve ${chosen.length} items?` });
    await dialog.waitFor();
    const text = await dialog.innerText();
    expect(text).toContain("Wire to E2E INBOX SMALL PAYEE");
    expect(text).toContain("Wire to E2E INBOX TOO MUCH PAYEE");
    expect(text).toContain("Incoming wire from E2E INBOX ORIG 1");
    // A SEN draft to one of the customer's accounts names it, not its number alone.
    if (ids.noFunds) expect(text).toContain(`SEN transfer to ${senTo}`);
    const data = await inbox(page);
    const total = data.items.filter((i) => chosen.includes(i.key)).reduce((s, i) => s + i.amountCents, 0);
    const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(total / 100);
    expect(text).toMatch(new RegExp(`Total of ${chosen.length} items\\s*${usd.replace(/[$.]/g, "\\$&")}`));
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "approvals-bulk-confirm-1440", false);

    // Meanwhile another approver decides the first wire: that one decision fails on its own.
    const wire1 = data.items.find((i) => i.key === `wire:${ids.w1}`);
    if (wire1?.kind !== "incoming_wire") throw new Error("wire 1 is not waiting");
    const first = await admin.page.request.post(`${world.app.url}/api/incoming-wires/${ids.w1}`, {
      data: {
        accountNumber: wire1.wire.accountNumber,
        action: "approve",
        paymentTimestamp: wire1.wire.paymentTimestamp,
      },
    });
    expect(first.status(), await first.text()).toBe(200);
    await dialog.getByRole("button", { name: new RegExp(`^Approve ${chosen.length} items`) }).press("Enter");
    const done = page.getByRole("dialog", { name: "Decisions sent" });
    await done.waitFor({ timeout: 60_000 });
    const result = (key: string) => done.locator(`li[data-key="${key}"] [data-result]`);
    expect(await result(`draft:${ids.small}`).getAttribute("data-result")).toBe("done");
    expect(await result(`draft:${ids.small}`).innerText()).toMatch(/Released: payment/);
    expect(await result(`draft:${ids.tooMuch}`).getAttribute("data-result")).toBe("done");
    expect(await result(`draft:${ids.tooMuch}`).innerText()).toContain("Your approval is recorded (1 of 2)");
    expect(await result(`wire:${ids.w1}`).getAttribute("data-result")).toBe("failed");
    if (ids.noFunds) {
      expect(await result(`draft:${ids.noFunds}`).getAttribute("data-result")).toBe("failed");
      expect(await result(`draft:${ids.noFunds}`).innerText()).toContain("Insufficient available funds");
    }
    expect(await done.innerText()).toContain(`2 done, ${chosen.length - 2} failed`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "approvals-bulk-results-1440", false);
    await page.getByRole("button", { name: "Done" }).press("Enter");

    // Decided items leave this approver's inbox (the one they voted on waits for someone else).
    await expect
      .poll(async () => (await inbox(page)).items.map((i) => i.key))
      .not.toContain(`draft:${ids.small}`);
    const after = (await inbox(page)).items.map((i) => i.key);
    expect(after).not.toContain(`wire:${ids.w1}`);
    expect(after).not.toContain(`draft:${ids.tooMuch}`);
    expect(after).toContain(`wire:${ids.w2}`);
    // The administrator may give the second approval.
    expect((await inbox(admin.page)).items.map((i) => i.key)).toContain(`draft:${ids.tooMuch}`);
  });

  it("changes the count in the navigation and on the home page when the bank receives a wire, on a page left open", async () => {
    const page = admin.page;
    await page.goto(`${world.app.url}/accounts`);
    const badge = page
      .getByRole("navigation", { name: "Main" })
      .locator('a[href="/approvals"] [data-inbox-count]');
    const home = page.locator("[data-waiting-count]");
    await home.waitFor({ timeout: FIRST_WAIT });
    const before = Number(await home.getAttribute("data-waiting-count"));
    await expect.poll(() => badge.getAttribute("data-inbox-count")).toBe(String(before));
    // The live stream is open before the wire arrives.
    await page.getByText("Live", { exact: true }).waitFor({ timeout: FIRST_WAIT });
    const started = Date.now();
    await incomingWire(dda, 4_200);
    await expect
      .poll(() => badge.getAttribute("data-inbox-count"), { timeout: 30_000 })
      .toBe(String(before + 1));
    const ms = Date.now() - started;
    await expect.poll(() => home.getAttribute("data-waiting-count")).toBe(String(before + 1));
    console.log(`inbox count moved ${ms} ms after the wire reached the bank`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "approvals-home-admin-1440");
  });

  it("at 390 px: a menu button opens the grouped navigation by keyboard, Escape closes it, nothing scrolls sideways", async () => {
    for (const role of ["preparer", "approver", "admin"]) {
      const s = await signIn(role, 390);
      try {
        const page = s.page;
        const nav = page.getByRole("navigation", { name: "Main" });
        const button = nav.getByRole("button", { name: /Menu/ });
        await button.waitFor();
        // The page answers keys once hydrated: its live indicator shows only then.
        await page.getByText("Live", { exact: true }).waitFor({ timeout: FIRST_WAIT });
        expect(await button.getAttribute("aria-expanded")).toBe("false");
        expect(await nav.getByRole("link", { name: "Accounts", exact: true }).isVisible()).toBe(false);
        await button.focus();
        await page.keyboard.press("Enter");
        expect(await button.getAttribute("aria-expanded")).toBe("true");
        // Focus is on the first link; the groups are named.
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Accounts");
        const groups = await nav
          .getByRole("list")
          .evaluateAll((els) =>
            els.map((e) => document.getElementById(e.getAttribute("aria-labelledby") ?? "")?.textContent),
          );
        expect(groups).toContain("Accounts");
        expect(groups).toContain("Sending money");
        if (role !== "preparer") expect(groups).toContain("Approvals");
        if (role === "admin") expect(groups).toContain("Administration");
        expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await shot(page, `approvals-menu-${role}-390`, false);
        await page.keyboard.press("Tab");
        await page.keyboard.press("Escape");
        expect(await button.getAttribute("aria-expanded")).toBe("false");
        expect(await page.evaluate(() => document.activeElement?.textContent?.includes("Menu"))).toBe(true);
        // A link followed from the menu closes it.
        await page.keyboard.press("Enter");
        await nav.getByRole("link", { name: "Payments", exact: true }).press("Enter");
        await page.waitForURL(/\/payments/);
        await expect.poll(() => button.getAttribute("aria-expanded")).toBe("false");

        await page.goto(`${world.app.url}/approvals`);
        await page.getByRole("heading", { level: 1, name: "Approvals" }).waitFor({ timeout: FIRST_WAIT });
        if (role !== "preparer")
          await page.locator("tbody tr[data-key]").first().waitFor({ timeout: FIRST_WAIT });
        expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await shot(page, `approvals-${role}-390`);
      } finally {
        await s.context.close();
      }
    }
  });

  it("e-mails one digest to each person who may act, once, readable on /mail in the default set-up", async () => {
    const approverEmail = world.app.users.find((u) => u.role === "approver")?.email as string;
    const mails = async (page: Page) => {
      await page.goto(`${world.app.url}/mail`);
      await page.getByRole("heading", { level: 1, name: "Mail" }).waitFor({ timeout: FIRST_WAIT });
      return page.locator('[data-mail-kind="approval_digest"]').allInnerTexts();
    };
    // Everything made at the start has waited a minute by now or soon; the digest looks every 2 s.
    await expect
      .poll(async () => (await mails(approver.page)).length, { timeout: 150_000, interval: 3_000 })
      .toBeGreaterThan(0);
    await expect
      .poll(async () => (await mails(approver.page)).join("\n"), { timeout: 90_000, interval: 3_000 })
      .toContain("Incoming wire to decide: from E2E INBOX ORIG 2");
    const forApprover = await mails(approver.page);
    const naming = forApprover.find((m) => m.includes("E2E INBOX ORIG 2")) ?? "";
    expect(naming).toMatch(/waited over 1 min for your approval/);
    expect(naming).toContain("/approvals");
    // Never the approver's own draft; the administrator's digest has it.
    expect(forApprover.join("\n")).not.toContain("E2E INBOX APPROVERS OWN");
    await expect
      .poll(async () => (await mails(admin.page)).join("\n"), { timeout: 60_000, interval: 3_000 })
      .toContain("E2E INBOX APPROVERS OWN");
    // npm start also hands the dashboard's mail to the bank's sandbox mail box over SMTP: the same
    // digest is there, addressed to the approver.
    const sandboxMail = async (to = approverEmail) => {
      const r = await fetch(`${world.demo.bankUrl}/sandbox/mail?to=${encodeURIComponent(to)}`, {
        headers: { [BANK_HEADERS.sandboxKey]: world.demo.sandboxKey },
      });
      expect(r.status).toBe(200);
      return ((await r.json()) as { subject: string; text: string }[]).filter((m) =>
        /for your approval/.test(m.subject),
      );
    };
    await expect
      .poll(async () => (await sandboxMail()).some((m) => m.text.includes("E2E INBOX ORIG 2")), {
        timeout: 60_000,
        interval: 2_000,
      })
      .toBe(true);
    // The delivered digests name each account beside its masked number, never the number alone:
    // an incoming wire's in the approver's, and the draft the approver prepared in the administrator's
    // (it waits for the whole test; the others may be decided before they have waited a minute).
    const ddaWords = `${ddaName} (••••${dda.slice(-4)})`;
    expect((await sandboxMail()).map((m) => m.text).join("\n")).toContain(`, to ${ddaWords};`);
    const adminEmail = world.app.users.find((u) => u.role === "admin")?.email as string;
    const toAdmin = async () => (await sandboxMail(adminEmail)).map((m) => m.text).join("\n");
    await expect
      .poll(toAdmin, { timeout: 60_000, interval: 2_000 })
      .toContain("Draft to release: wire to E2E INBOX APPROVERS OWN, $800.00");
    expect(await toAdmin()).toContain(`E2E INBOX APPROVERS OWN, $800.00, from ${ddaWords};`);
    expect(await toAdmin()).not.toContain(`from account ••••${dda.slice(-4)}`);
    // A preparer acts on none of it: no digest.
    expect(await mails(preparer.page)).toEqual([]);
    expect(await seriousAxeViolations(approver.page)).toEqual([]);
    await shot(approver.page, "approvals-mail-approver-1440");

    // Looks go on every 2 s: each item is still named in one digest only.
    await new Promise((r) => setTimeout(r, 8_000));
    const again = await mails(approver.page);
    for (const name of ["E2E INBOX ORIG 2", "E2E INBOX SMALL PAYEE"]) {
      const naming = again.filter((m) => m.includes(name));
      expect(naming.length, name).toBeLessThanOrEqual(1);
    }
    expect(again.filter((m) => m.includes("E2E INBOX ORIG 2"))).toHaveLength(1);
    expect((await sandboxMail()).filter((m) => m.text.includes("E2E INBOX ORIG 2"))).toHaveLength(1);
    await approver.page.setViewportSize({ width: 390, height: 844 });
    expect(await sidewaysOverflow(approver.page)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(approver.page)).toEqual([]);
    await shot(approver.page, "approvals-mail-approver-390");
    await approver.page.setViewportSize({ width: 1440, height: 900 });
  }, 300_000);

  it("keeps a thousand-item inbox quick: only the rows in view are in the page, and j/k, x and a still reach every row", async () => {
    const page = approver.page;
    for (let i = 0; i < 6; i++) await Promise.all(Array.from({ length: 10 }, () => incomingWire(dda, 150)));
    await page.goto(`${world.app.url}/approvals`);
    const table = page.getByRole("table", { name: "Waiting for you, oldest first" });
    await page.locator("tbody tr[data-key]").first().waitFor({ timeout: FIRST_WAIT });
    const items = (await inbox(page)).items;
    expect(items.length).toBeGreaterThanOrEqual(60);
    // A screen reader hears the whole list's size and each row's place in it.
    await expect.poll(() => table.getAttribute("aria-rowcount")).toBe(String(items.length + 1));
    const rendered = page.locator("tbody tr[data-key]");
    expect(await rendered.count()).toBeLessThan(items.length);
    const indexes = await rendered.evaluateAll((els) =>
      els.map((e) => Number(e.getAttribute("aria-rowindex"))),
    );
    expect(indexes[0]).toBe(2);
    expect(indexes).toEqual(indexes.map((_, n) => n + 2));

    // j walks past the rendered rows: each row is focused and scrolled into view under the header.
    const target = Math.min(items.length - 1, 45);
    await page.keyboard.press("j");
    for (let n = 0; n < target; n++) await page.keyboard.press("j");
    const focused = page.locator("tbody tr:focus");
    await expect.poll(() => focused.getAttribute("data-key")).toBe(items[target].key);
    expect(await focused.getAttribute("aria-rowindex")).toBe(String(target + 2));
    const inView = await focused.evaluate((row) => {
      const box = row.closest("div") as HTMLElement;
      const head = box.querySelector("thead") as HTMLElement;
      const r = row.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      return r.top >= head.getBoundingClientRect().bottom - 1 && r.bottom <= b.bottom + 1;
    });
    expect(inView).toBe(true);
    expect(await page.locator(`tr[data-key="${items[0].key}"]`).count()).toBe(0);

    // x selects the row far down; a asks about exactly that one.
    await page.keyboard.press("x");
    await expect.poll(() => focused.locator("input[type=checkbox]").isChecked()).toBe(true);
    await page.keyboard.press("a");
    const dialog = page.getByRole("dialog", { name: "Approve 1 item?" });
    await dialog.waitFor();
    const only = items[target];
    expect(await dialog.innerText()).toContain(
      only.kind === "incoming_wire" ? `Incoming wire from ${only.wire.originatorName}` : "",
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Keep waiting" }).click();
    await dialog.waitFor({ state: "detached" });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-key")))
      .toBe(items[target].key);
    // Select all reaches the rows not rendered: the card counts every one.
    await page.getByLabel("Select all", { exact: true }).check();
    expect(await page.getByRole("region", { name: "Waiting for you" }).innerText()).toContain(
      `${items.length} selected`,
    );
    await page.getByLabel("Select all", { exact: true }).uncheck();

    // k walks back to the top.
    await page.locator(`tr[data-key="${items[target].key}"]`).focus();
    for (let n = 0; n < target; n++) await page.keyboard.press("k");
    await expect.poll(() => page.locator("tbody tr:focus").getAttribute("data-key")).toBe(items[0].key);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "approvals-many-approver-1440");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator("tbody tr:focus").waitFor();
    for (let n = 0; n < 20; n++) await page.keyboard.press("j");
    await expect.poll(() => page.locator("tbody tr:focus").getAttribute("data-key")).toBe(items[20].key);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    // The rows above and below the drawn ones make no columns of their own: the item and the
    // amount share the whole width.
    expect(await unclaimedRowWidth(page.locator("tbody tr:focus"))).toBeLessThanOrEqual(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "approvals-many-approver-390");
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 180_000);
});
