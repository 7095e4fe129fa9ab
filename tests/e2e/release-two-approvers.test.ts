// Two people for large outgoing money, in real Chromium against the product as `npm start` starts
// it: an administrator sets the release dual-approval limit on the settings page; a wire above it
// shows "0 of 2 approvals"; the first approver's Approve records the vote and sends nothing; the
// second approver, seeing who approved and what their approval does, releases it once. By keyboard,
// with no serious axe finding on the list or the dialogs.
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import type { AccountsResponse, DraftListResponse } from "../../lib/dashboard-api/index.ts";
import { FIRST_WAIT, launchChromium, seriousAxeViolations, signIn as signInAs } from "../helpers/browser.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";

let app: RunningDashboard;
let browser: Browser;
let demo: { sandboxKey: string; bankUrl: string };

beforeAll(async () => {
  app = await startDashboard();
  demo = JSON.parse(fs.readFileSync(path.join(app.dataDir, "bank-demo.json"), "utf8"));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function signIn(role: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  return { context, page: await signInAs(app, context, role) };
}

async function draftOf(page: Page, id: string) {
  const r = await page.request.get(`${app.url}/api/drafts?status=all`);
  return ((await r.json()) as DraftListResponse).drafts.find((d) => d.id === id);
}

async function availableOf(page: Page, account: string): Promise<number> {
  const r = await page.request.get(`${app.url}/api/accounts/${account}/balance`);
  return ((await r.json()) as { availableCents: number }).availableCents;
}

describe("two approvers for a large outgoing wire, in Chromium", () => {
  let preparer: { context: BrowserContext; page: Page };
  let approver: { context: BrowserContext; page: Page };
  let admin: { context: BrowserContext; page: Page };
  let dda: string;

  beforeAll(async () => {
    [preparer, approver, admin] = [await signIn("preparer"), await signIn("approver"), await signIn("admin")];
    const accounts = (await (
      await preparer.page.request.get(`${app.url}/api/accounts`)
    ).json()) as AccountsResponse;
    dda = (accounts.accounts.find((a) => a.type === "DDA") as { accountNumber: string }).accountNumber;
    const funded = await fetch(`${demo.bankUrl}/sandbox/deposits`, {
      method: "POST",
      headers: { "content-type": "application/json", [BANK_HEADERS.sandboxKey]: demo.sandboxKey },
      body: JSON.stringify({ accountNumber: dda, amount: 10_000, description: "E2E TWO APPROVERS" }),
    });
    expect(funded.ok).toBe(true);
  });

  afterAll(async () => {
    for (const s of [preparer, approver, admin]) await s?.context.close();
  });

  it("an administrator lowers the limit on the settings page by keyboard", async () => {
    const { page } = admin;
    await page.goto(`${app.url}/admin/settings`);
    const limit = page.getByLabel("Outgoing payments need two approvers above (USD)");
    await expect.poll(() => limit.inputValue(), { timeout: FIRST_WAIT }).toBe("1,000,000.00");
    await limit.fill("1,000.00");
    await limit.press("Enter");
    await expect.poll(() => page.getByRole("status").innerText()).toContain("Saved.");
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it("the first approval records the vote and sends nothing; the second, by another approver, releases it once", async () => {
    // The limit the test above lowers on the page, lowered here too so this test also runs alone
    // (a lower limit applies at once; the same value again changes nothing).
    const lowered = await admin.page.request.put(`${app.url}/api/admin/settings`, {
      data: { releaseDualApprovalCents: 100_000 },
    });
    expect(lowered.status(), await lowered.text()).toBe(200);
    const made = await preparer.page.request.post(`${app.url}/api/wires`, {
      data: {
        idempotencyKey: crypto.randomUUID(),
        originator_account_number: dda,
        amount: "1,500.00",
        beneficiary_name: "E2E TWO APPROVERS PAYEE",
        beneficiary_account_number: "77009",
        beneficiary_address1: "5 Harbour Road",
        receiving_bank_routing_id: "021000021",
      },
    });
    expect(made.status()).toBe(200);
    const draftId: string = (await made.json()).draft.id;
    const before = await availableOf(approver.page, dda);

    // The first approver: the list says it needs two, the button says Approve.
    const p1 = approver.page;
    await p1.goto(`${app.url}/drafts`);
    const row1 = p1.locator(`tr[data-draft="${draftId}"]`);
    await row1.waitFor({ timeout: FIRST_WAIT });
    await expect.poll(() => row1.innerText()).toContain("0 of 2 approvals");
    expect(await row1.innerText()).toContain("Needs two approvers; the second approval sends it.");
    expect(await seriousAxeViolations(p1)).toEqual([]);
    const approve = row1.getByRole("button", { name: "Approve" });
    await approve.focus();
    await p1.keyboard.press("Enter");
    const dialog1 = p1.getByRole("dialog", { name: "Approve this payment?" });
    await dialog1.waitFor();
    expect(await dialog1.innerText()).toContain(
      "Your approval is the first of two: nothing is sent until a second approver approves.",
    );
    expect(await dialog1.innerText()).toMatch(/Approvals\s*0 of 2 approvals/);
    expect(await seriousAxeViolations(p1)).toEqual([]);
    await dialog1.getByRole("button", { name: "Approve (first of two)" }).press("Enter");
    await p1.getByText(/Your approval is recorded \(1 of 2\)/).waitFor();
    await expect.poll(() => row1.innerText()).toContain("1 of 2 approvals: ");
    const afterVote = await draftOf(p1, draftId);
    expect(afterVote).toMatchObject({ status: "pending", paymentId: null, approvalsRequired: 2 });
    const firstEmail = afterVote?.approvals[0].email as string;
    await expect.poll(() => row1.innerText()).toContain("You approved; waiting for a second approver");
    expect(await row1.getByRole("button", { name: /Approve|Release/ }).count()).toBe(0);
    expect(await availableOf(p1, dda)).toBe(before);
    expect(await seriousAxeViolations(p1)).toEqual([]);

    // The second approver sees who approved and that their approval sends it.
    const p2 = admin.page;
    await p2.goto(`${app.url}/drafts`);
    const row2 = p2.locator(`tr[data-draft="${draftId}"]`);
    await row2.waitFor({ timeout: FIRST_WAIT });
    await expect.poll(() => row2.innerText()).toContain(`1 of 2 approvals: ${firstEmail}`);
    expect(await row2.innerText()).toContain("The next approval, by another approver, sends it.");
    const releaseButton = row2.getByRole("button", { name: "Release" });
    await releaseButton.focus();
    await p2.keyboard.press("Enter");
    const dialog2 = p2.getByRole("dialog", { name: "Release this payment?" });
    await dialog2.waitFor();
    // Before the click it also says what happens should the wire system be down.
    expect(await dialog2.innerText()).toContain(
      "Your approval is the second: it sends the payment to the bank now (should the wire system be down, the wire waits in the bank's backup log and goes out once, when it is back).",
    );
    expect(await dialog2.innerText()).toContain(firstEmail);
    expect(await seriousAxeViolations(p2)).toEqual([]);
    await dialog2.getByRole("button", { name: "Release payment" }).press("Enter");
    await p2.getByText(/Released\. The bank's payment id is O/).waitFor();

    const released = await draftOf(p2, draftId);
    expect(released?.status).toBe("released");
    expect(released?.approvals.map((a) => a.email)).toEqual([firstEmail, expect.any(String)]);
    expect(new Set(released?.approvals.map((a) => a.id)).size).toBe(2);
    expect(await availableOf(p2, dda)).toBe(before - 150_000);
    await p2.getByLabel("All recent drafts").check();
    const shown = p2.locator(`tr[data-draft="${draftId}"]`);
    await expect.poll(() => shown.innerText()).toContain("2 of 2 approvals");
    expect(await seriousAxeViolations(p2)).toEqual([]);
  });
});
