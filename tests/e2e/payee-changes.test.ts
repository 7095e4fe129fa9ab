// The payee control in real Chromium against the product as `npm start` starts it: a preparer
// adds a beneficiary and changes its account; each waits for another person, shown with who
// changed what (masked); the wire form does not offer it meanwhile and the server refuses a draft
// that names it; an approver who did not make the change approves it on the beneficiaries page;
// the wire it fills shows, in the release dialog, what changed, when, who changed it and who
// approved it. axe on every step.
import { randomUUID } from "node:crypto";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  AccountsResponse,
  AuditResponse,
  BeneficiaryListResponse,
  DraftListResponse,
} from "../../lib/dashboard-api/index.ts";
import { FIRST_WAIT, seriousAxeViolations, shot, signIn } from "../helpers/browser.ts";
import { browserWorld } from "../helpers/browser-world.ts";

const world = browserWorld();
const api = world.api;

async function axe(page: Page, where: string) {
  expect(await seriousAxeViolations(page), where).toEqual([]);
}

/**
 * The wire form's saved-beneficiary choices, read once they are drawn: the form offers exactly the
 * approved beneficiaries the API lists, in its order.
 */
async function offered(page: Page): Promise<string[]> {
  await page.goto(`${world.app.url}/wires/new`);
  const picker = page.getByLabel("Fill from a saved beneficiary");
  await picker.waitFor({ timeout: FIRST_WAIT });
  const approved = (await api<BeneficiaryListResponse>(page, "/api/beneficiaries")).beneficiaries
    .filter((b) => b.status === "approved")
    .map((b) => b.label);
  await expect
    .poll(() => picker.locator("option").allInnerTexts(), { timeout: FIRST_WAIT })
    .toEqual(["Choose one to fill the fields", ...approved]);
  return approved;
}

describe("payee control in Chromium", () => {
  const contexts: BrowserContext[] = [];
  let preparer: Page;
  let approver: Page;
  let admin: Page;
  let dda: string;

  beforeAll(async () => {
    const open = async (role: string) => {
      const context = await world.browser.newContext({ viewport: { width: 1440, height: 900 } });
      contexts.push(context);
      return signIn(world.app, context, role);
    };
    [preparer, approver, admin] = [await open("preparer"), await open("approver"), await open("admin")];
    const accounts = await api<AccountsResponse>(preparer, "/api/accounts");
    dda = (accounts.accounts.find((a) => a.type === "DDA") ?? accounts.accounts[0]).accountNumber;
    await world.demo.sandbox("/sandbox/deposits", {
      accountNumber: dda,
      amount: 1_000,
      description: "E2E PAYEE FUNDING",
    });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
  });

  it("a changed account waits for another person's approval, and the release dialog says what changed, when and by whom", async () => {
    const label = `E2E PAYEE ${Date.now().toString(36).toUpperCase()}`;
    const name = `${label} LTD`;
    const row = (page: Page) => page.locator(`tr[data-beneficiary="${label}"]`);

    // The preparer adds it: it waits for a second person and fills no wire.
    await preparer.goto(`${world.app.url}/beneficiaries`);
    await preparer
      .getByRole("heading", { name: "Saved beneficiaries", level: 1 })
      .waitFor({ timeout: FIRST_WAIT });
    await preparer.getByRole("button", { name: "Add a beneficiary" }).press("Enter");
    await preparer.getByLabel("Saved as").fill(label);
    await preparer.getByLabel("Name", { exact: true }).fill(name);
    await preparer.getByLabel("Account number", { exact: true }).fill("44441111");
    await preparer.getByLabel("Address line 1").fill("7 Pier Road");
    await preparer.getByLabel("Receiving bank ABA routing number").fill("021000021");
    await preparer.getByRole("button", { name: "Save beneficiary" }).press("Enter");
    await preparer
      .getByRole("status")
      .filter({ hasText: `Saved “${label}”.` })
      .waitFor();
    await expect.poll(() => row(preparer).innerText()).toContain("New: waiting for approval");
    expect(await offered(preparer)).not.toContain(label);

    // Another person approves it.
    await approver.goto(`${world.app.url}/beneficiaries`);
    await row(approver)
      .getByRole("button", { name: `Approve ${label}` })
      .press("Enter");
    const approveNew = approver.getByRole("dialog", { name: "Approve this new beneficiary?" });
    await approveNew.waitFor();
    await axe(approver, "approving a new beneficiary");
    await approveNew.getByRole("button", { name: "Approve", exact: true }).press("Enter");
    await approver
      .getByRole("status")
      .filter({ hasText: `Approved “${label}”: it fills wires now.` })
      .waitFor();

    // The preparer changes where the money lands: the change waits, shown masked.
    await preparer.goto(`${world.app.url}/beneficiaries`);
    await expect.poll(() => row(preparer).innerText(), { timeout: FIRST_WAIT }).toContain("Approved");
    await row(preparer)
      .getByRole("button", { name: `Change ${label}` })
      .press("Enter");
    await expect
      .poll(() => preparer.getByLabel("Account number", { exact: true }).inputValue())
      .toBe("44441111");
    await preparer.getByLabel("Account number", { exact: true }).fill("44442222");
    await preparer.getByRole("button", { name: "Save changes" }).press("Enter");
    await preparer
      .getByRole("status")
      .filter({ hasText: `Changed “${label}”.` })
      .waitFor();
    await expect.poll(() => row(preparer).innerText()).toContain("Change waiting for approval");
    const waiting = await row(preparer).innerText();
    expect(waiting).toContain("Changed by you");
    expect(waiting).toMatch(/Account number: ••••1111\s*→\s*changed to\s*••••2222/);
    expect(waiting).not.toContain("44442222");
    expect(waiting).toContain("Another approver approves it");
    await axe(preparer, "a change waiting for approval");
    await shot(preparer, "payee-change-waiting-1440");

    // Meanwhile the wire form does not offer it, and the server refuses a draft that names it.
    expect(await offered(preparer)).not.toContain(label);
    await expect.poll(() => preparer.getByText("not offered: new or changed").count()).toBeGreaterThan(0);
    const id = (await api<BeneficiaryListResponse>(preparer, "/api/beneficiaries")).beneficiaries.find(
      (b) => b.label === label,
    )?.id as string;
    const refused = await preparer.request.post(`${world.app.url}/api/wires`, {
      data: {
        idempotencyKey: randomUUID(),
        beneficiaryId: id,
        originator_account_number: dda,
        amount: "12.34",
        beneficiary_name: name,
        beneficiary_account_number: "44441111",
        beneficiary_address1: "7 Pier Road",
        receiving_bank_routing_id: "021000021",
      },
    });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      "has a change waiting for approval",
    );

    // An approver who did not make it approves it, seeing who changed what.
    await approver.goto(`${world.app.url}/beneficiaries`);
    await expect
      .poll(() => row(approver).innerText(), { timeout: FIRST_WAIT })
      .toContain("Change waiting for approval");
    expect(await row(approver).innerText()).toMatch(/Changed by preparer@/);
    await row(approver)
      .getByRole("button", { name: `Approve ${label}` })
      .press("Enter");
    const approveChange = approver.getByRole("dialog", { name: "Approve this change?" });
    await approveChange.waitFor();
    // The approver sees the whole old and new numbers, not matching last digits.
    const asked = await approveChange.innerText();
    expect(asked).toMatch(/Old: 44441111/);
    expect(asked).toMatch(/New: 44442222/);
    await axe(approver, "approving a change");
    await shot(approver, "payee-change-approve-dialog-1440");
    await approveChange.getByRole("button", { name: "Approve", exact: true }).press("Enter");
    await approver
      .getByRole("status")
      .filter({ hasText: `Approved the change to “${label}”.` })
      .waitFor();

    // The approved change fills a wire.
    expect(await offered(preparer)).toContain(label);
    await preparer.getByLabel("From account").selectOption(dda);
    await preparer.getByLabel("Amount (USD)").fill("12.34");
    await preparer.getByLabel("Fill from a saved beneficiary").selectOption({ label });
    await expect
      .poll(() => preparer.getByLabel("Account number", { exact: true }).inputValue())
      .toBe("44442222");
    await preparer.getByRole("button", { name: "Review wire" }).click();
    await preparer.getByRole("heading", { name: "Review the wire" }).waitFor();
    await preparer.getByRole("button", { name: "Save draft for release" }).click();
    await preparer.getByRole("heading", { name: "Draft saved: waiting for release" }).waitFor();
    const draft = (await api<DraftListResponse>(preparer, "/api/drafts?status=all")).drafts.find(
      (d) => d.counterparty === name,
    );
    expect(draft?.beneficiaryId).toBe(id);

    // The release dialog says what changed, when, who changed it and who approved it.
    await admin.goto(`${world.app.url}/drafts`);
    const draftRow = admin.locator(`tr[data-draft="${draft?.id}"]`);
    await draftRow.waitFor({ timeout: FIRST_WAIT });
    await draftRow.getByRole("button", { name: "Release" }).click();
    const dialog = admin.getByRole("dialog", { name: "Release this payment?" });
    await dialog.waitFor();
    const warning = dialog.getByRole("region", { name: "Beneficiary details changed in the last 30 days" });
    await warning.waitFor();
    const said = await warning.innerText();
    expect(said).toContain(`“${label}”: account or bank details changed`);
    expect(said).toContain("••••1111");
    expect(said).toContain("••••2222");
    expect(said).toMatch(/Changed by preparer@[^,]+, [^;]+; approved by approver@[^,]+, /);
    expect(said).toContain(`“${label}”: a new beneficiary`);
    await axe(admin, "the release dialog with a payee change");
    await shot(admin, "payee-change-release-dialog-1440");
    await dialog.getByRole("button", { name: "Release payment" }).click();
    await admin.getByText(/Released\. The bank's payment id is O/).waitFor();

    const audit = await api<AuditResponse>(admin, "/api/admin/audit");
    const mine = audit.entries.filter((e) => e.target === id).map((e) => `${e.action}:${e.result}`);
    expect(mine).toEqual(
      expect.arrayContaining([
        "beneficiary.create:awaiting_approval",
        "beneficiary.update:awaiting_approval",
        "beneficiary.approve:ok",
      ]),
    );
    expect(mine.filter((a) => a === "beneficiary.approve:ok")).toHaveLength(2);
  });
});
