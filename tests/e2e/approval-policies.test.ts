// Approval policies in Chromium against `npm start`: an administrator states a policy and sees what
// it would have required of the last 30 days, a second administrator approves it, and a wire then
// needs what it says, in the API and in the release dialog's words. The release dialog then shows
// a vote struck through once its voter was demoted, with why, and the notice of an approver whose
// password an administrator reset: the rogue administrator's path (demote, reset, re-promote) seen
// from the approver's side.
import { randomUUID } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIRST_WAIT, launchChromium, seriousAxeViolations, shot, signIn } from "../helpers/browser.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";
import { mailedAccountLink } from "../helpers/live.ts";

let app: RunningDashboard;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  app = await startDashboard();
  browser = await launchChromium();
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await app?.stop();
});

async function as(who: string): Promise<Page> {
  const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(c);
  return signIn(app, c, who);
}

describe("approval policies", () => {
  it("an administrator states a policy, a second approves it, and a wire then needs what it says", async () => {
    const admin = await as("admin");
    await admin.goto(`${app.url}/admin/policies`);
    await admin.getByRole("table", { name: /Policies in force/ }).waitFor({ timeout: FIRST_WAIT });
    expect(await admin.getByRole("table", { name: /Policies in force/ }).innerText()).toContain(
      "Wires over $1,000,000.00",
    );
    await admin.getByLabel("Name, as the release dialog says it").fill("Wires over $700.00");
    await admin.getByLabel("Rail").selectOption("wire");
    await admin.getByLabel("Amount over (USD, blank for any)").fill("700.00");
    await admin.getByLabel("Approvers required").selectOption("3");
    await admin.getByRole("button", { name: "Preview the last 30 days" }).click();
    const preview = admin.getByRole("table", {
      name: "What this set would have required of the last 30 days",
    });
    await preview.waitFor();
    expect(await preview.innerText()).toContain("Wires");
    expect(await seriousAxeViolations(admin)).toEqual([]);
    await shot(admin, "admin-policies-preview");
    await admin.getByRole("button", { name: "Ask a second administrator" }).click();
    await expect
      .poll(() => admin.getByRole("status").first().innerText())
      .toContain("second administrator approves");

    // Not in force until a second administrator approves.
    const before = await admin.evaluate(async () => (await fetch("/api/admin/policies")).json());
    expect(before.isDefault).toBe(true);

    const second = await as("admin2@northwind.example");
    await second.goto(`${app.url}/admin/policies`);
    const approve = second
      .getByRole("table", { name: "Policy changes waiting for approval" })
      .getByRole("button", { name: /^Approve Approval policies/ });
    await approve.waitFor({ timeout: FIRST_WAIT });
    await approve.click();
    await expect
      .poll(() => second.getByRole("status").filter({ hasText: "Approved and in force" }).count())
      .toBe(1);
    await expect
      .poll(() => second.getByRole("table", { name: /Policies in force/ }).innerText())
      .toContain("Wires over $700.00");

    // A wire over $700.00 now needs three approvers, and says which policy asked.
    const preparer = await as("preparer");
    const accounts = await preparer.evaluate(async () => (await fetch("/api/accounts")).json());
    const dda = (accounts.accounts as { accountNumber: string; type: string }[]).find((a) => a.type === "DDA")
      ?.accountNumber as string;
    const made = await preparer.evaluate(
      async ({ key, account }) => {
        const r = await fetch("/api/wires", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            idempotencyKey: key,
            originator_account_number: account,
            amount: "750.00",
            beneficiary_name: "Policy Browser Payee",
            beneficiary_account_number: "4455667788",
            beneficiary_address1: "3 Rule Row",
            receiving_bank_routing_id: "021000021",
          }),
        });
        return { status: r.status, body: await r.json() };
      },
      { key: randomUUID(), account: dda },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.draft).toMatchObject({
      approvalsRequired: 3,
      approvalPolicy: "Wires over $700.00: 3 approvers",
    });
  });

  /** A request from the page's session, its status and JSON answer. */
  async function call(page: Page, method: string, url: string, data?: unknown) {
    const r = await page.request.fetch(`${app.url}${url}`, { method, ...(data ? { data } : {}) });
    return { status: r.status(), json: await r.json().catch(() => null) };
  }

  /** Opens the draft's release dialog on the drafts page, by keyboard. */
  async function openReleaseDialog(page: Page, draftId: string) {
    await page.goto(`${app.url}/drafts`);
    const row = page.locator(`tr[data-draft="${draftId}"]`);
    await row.waitFor({ timeout: FIRST_WAIT });
    const button = row.getByRole("button", { name: /^(Approve|Release)$/ });
    await button.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: /^(Approve|Release) this payment\?$/ });
    await dialog.waitFor();
    return dialog;
  }

  it("the release dialog names the policy, strikes a demoted approver's vote with why, and tells a reset approver they cannot vote yet", async () => {
    const admin = await as("admin");
    const second = await as("admin2@northwind.example");
    const approver = await as("approver");
    const preparer = await as("preparer");
    const accounts = await call(preparer, "GET", "/api/accounts");
    const dda = (accounts.json.accounts as { accountNumber: string; type: string }[]).find(
      (a) => a.type === "DDA",
    )?.accountNumber as string;
    const made = await call(preparer, "POST", "/api/wires", {
      idempotencyKey: randomUUID(),
      originator_account_number: dda,
      amount: "1,500,000.00",
      beneficiary_name: "Struck Vote Payee",
      beneficiary_account_number: "4455667799",
      beneficiary_address1: "4 Rule Row",
      receiving_bank_routing_id: "021000021",
    });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    const draft = made.json.draft as { id: string; approvalsRequired: number; approvalPolicy: string };
    expect(draft.approvalsRequired).toBeGreaterThanOrEqual(2);

    // The approver votes first; an administrator then demotes them (a demotion applies at once).
    expect((await call(approver, "POST", `/api/drafts/${draft.id}/release`, { version: 1 })).status).toBe(
      200,
    );
    const users = (await call(admin, "GET", "/api/admin/users")).json.users as {
      id: string;
      email: string;
    }[];
    const approverId = users.find((u) => u.email === "approver@northwind.example")?.id as string;
    expect((await call(admin, "PATCH", `/api/admin/users/${approverId}`, { role: "viewer" })).status).toBe(
      200,
    );

    // The next approver's dialog: the policy in words, no vote counted, the demoted vote struck with why.
    const dialog = await openReleaseDialog(admin, draft.id);
    await expect.poll(() => dialog.locator("[data-approval-policy]").innerText()).toBe(draft.approvalPolicy);
    const struck = dialog.locator("[data-struck-vote]");
    await expect
      .poll(() => struck.innerText())
      .toBe("approver@northwind.example not counted: is no longer an approver (now viewer)");
    expect(await struck.locator("s").innerText()).toBe("approver@northwind.example");
    expect(await dialog.innerText()).toMatch(
      new RegExp(`Approvals\\s*0 of ${draft.approvalsRequired} approvals`),
    );
    expect(await seriousAxeViolations(admin)).toEqual([]);
    await shot(admin, "release-dialog-struck-vote");
    await admin.keyboard.press("Escape");

    // The rogue administrator's path goes on: the demoted approver is now a viewer, whose reset
    // needs no second administrator. The link goes to the person alone, who chooses the password.
    const reset = await call(admin, "POST", `/api/admin/users/${approverId}/reset-password`);
    expect(reset.status, JSON.stringify(reset.json)).toBe(200);
    expect(JSON.stringify(reset.json)).not.toMatch(/account-link|temporaryPassword/);
    const link = await mailedAccountLink(app.dataDir, "approver@northwind.example");
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(link);
    const choose = page.getByRole("form", { name: "Choose your password" });
    await choose.getByLabel("New password", { exact: true }).fill("the approver's own passphrase");
    await choose.getByLabel("New password again").fill("the approver's own passphrase");
    await choose.getByRole("button", { name: "Save my password" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: "Your password is set" })
      .waitFor({ timeout: FIRST_WAIT });

    // Promoting them back waits for a second administrator, who sees the reset beside the role
    // change on the users page, and approves it there.
    const promote = await call(admin, "PATCH", `/api/admin/users/${approverId}`, { role: "approver" });
    expect(promote.status).toBe(202);
    await second.goto(`${app.url}/admin/users`);
    const history = second.getByRole("list", { name: "Credential history of approver@northwind.example" });
    await history.waitFor({ timeout: FIRST_WAIT });
    const lines = await history.innerText();
    expect(lines).toContain("Password reset by admin@northwind.example");
    expect(lines).toContain("One-time link e-mailed (password reset) by admin@northwind.example");
    expect(lines).toContain("One-time link used (password reset) by approver@northwind.example");
    expect(await seriousAxeViolations(second)).toEqual([]);
    await shot(second, "admin-users-credential-history");
    await second.getByRole("button", { name: /^Approve approver@northwind\.example/ }).click();
    await second
      .getByRole("status")
      .filter({ hasText: "Approved and in force" })
      .waitFor({ timeout: FIRST_WAIT });

    // Signed in with the password they chose, the approver is told they cannot vote on money yet.
    await page.goto(`${app.url}/sign-in`);
    await page.getByLabel("Work e-mail").fill("approver@northwind.example");
    await page.getByLabel("Password").fill("the approver's own passphrase");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/accounts/, { timeout: FIRST_WAIT });

    const own = await openReleaseDialog(page, draft.id);
    const notice = own.getByRole("alert").filter({ hasText: "less than 24 hours ago" });
    await notice.waitFor({ timeout: FIRST_WAIT });
    expect(await notice.innerText()).toMatch(
      /^You were invited, or your credentials were reset, less than 24 hours ago: until .+ you cannot approve anything that moves money\. Another approver can\.$/,
    );
    // The approver's earlier vote is struck for the same reason, and the server refuses a new one.
    await expect
      .poll(() => own.locator("[data-struck-vote]").innerText())
      .toMatch(
        /^approver@northwind\.example not counted: had credentials changed recently: may vote from [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}/,
      );
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "release-dialog-embargo");
    await own.getByRole("button", { name: /^Approve|^Release payment/ }).click();
    await own
      .getByRole("alert")
      .filter({ hasText: /cannot approve anything that moves money/ })
      .nth(1)
      .waitFor();
    const after = await call(page, "GET", `/api/drafts?status=all`);
    const still = (after.json.drafts as { id: string; status: string }[]).find((d) => d.id === draft.id);
    expect(still?.status).toBe("pending");
  });
});
