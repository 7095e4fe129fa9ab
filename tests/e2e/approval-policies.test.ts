// Approval policies in Chromium against `npm start`: an administrator states a policy and sees what
// it would have required of the last 30 days, a second administrator approves it, and a wire then
// needs what it says, in the API and in the release dialog's words.
import { randomUUID } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIRST_WAIT, launchChromium, seriousAxeViolations, shot, signIn } from "../helpers/browser.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";

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
});
