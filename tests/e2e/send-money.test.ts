// Sending money in real Chromium against the product as `npm start` starts it (the real bank, the
// real dashboard): a SEN transfer that a double click and a reload move once, a wire drafted by
// one person and released by another, two approvers releasing one draft at once, the release
// threshold, a rejection with its reason, the audit log, a new SEN account, the payments pages;
// axe on every new page and a look at each at 1440 and 390 px.
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../lib/bank-api/dates.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { formatUsd } from "../../lib/bank-api/money.ts";
import type {
  AccountsResponse,
  AuditResponse,
  DraftListResponse,
  PaymentsResponse,
} from "../../lib/dashboard-api/index.ts";
import { MISPLACED_SEPARATOR_RULE } from "../../lib/form-rules/typed-dollars.ts";
import { parseCsv } from "../../lib/format/csv.ts";
import {
  FIRST_WAIT,
  headerOutOfOrder,
  launchChromium,
  SHOTS,
  seriousAxeViolations,
  sidewaysOverflow,
  signIn as signInAs,
} from "../helpers/browser.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";

let app: RunningDashboard;
let browser: Browser;
let demo: { sandboxKey: string; bankUrl: string };

beforeAll(async () => {
  // A build on a busy machine can take minutes.
  app = await startDashboard({ timeoutMs: 600_000 });
  demo = JSON.parse(fs.readFileSync(path.join(app.dataDir, "bank-demo.json"), "utf8"));
  browser = await launchChromium();
}, 660_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function signIn(role: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  return { context, page: await signInAs(app, context, role) };
}

/** No serious or critical axe violation on the page as it stands, and a picture at 1440 and 390 px. */
async function check(page: Page, name: string) {
  expect(await seriousAxeViolations(page), name).toEqual([]);
  expect(await headerOutOfOrder(page), `${name}: the header's tab order`).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, `send-${name}-1440.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.screenshot({ path: path.join(SHOTS, `send-${name}-390.png`), fullPage: true });
    expect(await seriousAxeViolations(page), `${name} at 390 px`).toEqual([]);
    expect(await sidewaysOverflow(page), `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
    expect(await headerOutOfOrder(page), `${name}: the header's tab order at 390 px`).toEqual([]);
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
}

async function availableOf(page: Page, account: string): Promise<number> {
  const r = await page.request.get(`${app.url}/api/accounts/${account}/balance`);
  expect(r.status()).toBe(200);
  return ((await r.json()) as { availableCents: number }).availableCents;
}

async function accountsOf(page: Page): Promise<AccountsResponse> {
  return (await (await page.request.get(`${app.url}/api/accounts`)).json()) as AccountsResponse;
}

async function openDrafts(page: Page): Promise<DraftListResponse["drafts"]> {
  return ((await (await page.request.get(`${app.url}/api/drafts?status=all`)).json()) as DraftListResponse)
    .drafts;
}

async function sandbox(p: string, body: unknown) {
  const r = await fetch(`${demo.bankUrl}${p}`, {
    method: "POST",
    headers: { "content-type": "application/json", [BANK_HEADERS.sandboxKey]: demo.sandboxKey },
    body: JSON.stringify(body),
  });
  expect(r.ok).toBe(true);
  return r.json();
}

/** Prepares a wire through the wire page, as a person would; the draft's id from the list. */
async function draftWireInUi(
  page: Page,
  o: { from: string; amount: string; beneficiary: string; account: string },
) {
  await page.goto(`${app.url}/wires/new`);
  await page.getByLabel("From account").selectOption(o.from);
  await page.getByLabel("Amount (USD)").fill(o.amount);
  await page.getByLabel("Name", { exact: true }).fill(o.beneficiary);
  await page.getByLabel("Account number", { exact: true }).fill(o.account);
  await page.getByLabel("Address line 1").fill("1 Harbour Road");
  await page.getByLabel("Receiving bank ABA routing number").fill("021000021");
  await page.getByRole("button", { name: "Review wire" }).click();
  await page.getByRole("heading", { name: "Review the wire" }).waitFor();
  await page.getByRole("button", { name: "Save draft for release" }).click();
  await page.getByRole("heading", { name: "Draft saved: waiting for release" }).waitFor();
  const d = (await openDrafts(page)).find((x) => x.counterparty === o.beneficiary);
  if (!d) throw new Error(`draft for ${o.beneficiary} not listed`);
  return d;
}

describe("sending money in Chromium", () => {
  let preparer: { context: BrowserContext; page: Page };
  let approver: { context: BrowserContext; page: Page };
  let admin: { context: BrowserContext; page: Page };
  let accounts: AccountsResponse;
  let senFrom: string;
  let senTo: string;
  let dda: string;

  beforeAll(async () => {
    [preparer, approver, admin] = [await signIn("preparer"), await signIn("approver"), await signIn("admin")];
    accounts = await accountsOf(preparer.page);
    const sens = accounts.accounts
      .filter((a) => a.type === "SEN")
      .sort((a, b) => b.availableCents - a.availableCents);
    senFrom = sens[0].accountNumber;
    senTo = sens[1].accountNumber;
    dda = (accounts.accounts.find((a) => a.type === "DDA") as { accountNumber: string }).accountNumber;
    // Enough on the DDA for every wire here, whatever the demo left on it.
    await sandbox("/sandbox/deposits", { accountNumber: dda, amount: 100_000, description: "E2E FUNDING" });
    await sandbox("/sandbox/deposits", {
      accountNumber: senFrom,
      amount: 10_000,
      description: "E2E FUNDING",
    });
  });

  afterAll(async () => {
    for (const s of [preparer, approver, admin]) await s?.context.close();
  });

  it("a viewer sees no Send, Wire, Drafts or Beneficiaries link and cannot open the forms", async () => {
    const { context, page } = await signIn("viewer");
    try {
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect.poll(() => nav.innerText()).toContain("Payments");
      for (const name of ["Send", "Wire", "Drafts", "Beneficiaries"])
        expect(await nav.getByRole("link", { name, exact: true }).count(), name).toBe(0);
      await page.goto(`${app.url}/transfers/new`);
      await page.getByRole("alert").filter({ hasText: "This page is for" }).waitFor();
      const r = await page.request.post(`${app.url}/api/transfers`, { data: {} });
      expect(r.status()).toBe(403);
    } finally {
      await context.close();
    }
  });

  it("a preparer sends a SEN transfer by keyboard; a double click moves the money once", async () => {
    const { page } = preparer;
    const before = [await availableOf(page, senFrom), await availableOf(page, senTo)];
    await page.goto(`${app.url}/accounts`);
    await page.getByRole("link", { name: "Send" }).click();
    await page.getByRole("heading", { name: "Send money" }).waitFor();
    const fromSelect = page.getByLabel("From account");
    await expect.poll(() => fromSelect.locator("option").count(), { timeout: FIRST_WAIT }).toBeGreaterThan(2);
    await check(page, "transfer-edit");

    // Keyboard alone: select, type, move on with Tab, submit with Enter.
    await fromSelect.focus();
    await fromSelect.selectOption(senFrom);
    await page.keyboard.press("Tab");
    await page.keyboard.type(senTo);
    await page.keyboard.press("Tab");
    await page.keyboard.type("12.345");
    await page.keyboard.press("Tab");
    const amount = page.getByLabel("Amount (USD)");
    await expect.poll(() => amount.getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByText("Enter an amount in dollars, at most two decimals").count()).toBe(1);
    // A comma that does not group by three is a slip, not 1,250.00.
    await amount.fill(".5");
    await expect.poll(() => amount.getAttribute("aria-invalid")).toBe(null);
    await amount.fill("12,50");
    await expect.poll(() => amount.getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByText(MISPLACED_SEPARATOR_RULE).count()).toBe(1);
    await amount.fill("1,234.56");
    await page.getByLabel("Description on your account").fill("E2E PAYROLL");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Review the transfer" }).waitFor();
    expect(await page.getByText("One thousand two hundred thirty-four dollars and 56 cents").count()).toBe(1);
    expect(await page.getByText(`SEN to ${senTo}`).count()).toBe(1);
    await check(page, "transfer-review");

    await page.getByRole("button", { name: "Confirm transfer" }).dblclick();
    await page.getByRole("heading", { name: "Transfer complete" }).waitFor();
    expect(await page.getByTestId("new-available").innerText()).toBe(formatUsd(before[0] - 123_456));
    await check(page, "transfer-done");
    expect([await availableOf(page, senFrom), await availableOf(page, senTo)]).toEqual([
      before[0] - 123_456,
      before[1] + 123_456,
    ]);
  });

  it("when the answer is lost after Confirm, a reload and a second Confirm move the money once", async () => {
    const { page } = preparer;
    await page.goto(`${app.url}/transfers/new`);
    const before = await availableOf(page, senFrom);
    await page.getByLabel("From account").selectOption(senFrom);
    await page.getByLabel("To account").fill(senTo);
    await page.getByLabel("Amount (USD)").fill("7.01");
    await page.getByRole("button", { name: "Review transfer" }).click();
    // The request reaches the dashboard and the bank; its answer never reaches the browser.
    let reached!: () => void;
    const atServer = new Promise<void>((r) => {
      reached = r;
    });
    await page.route("**/api/transfers", async (route) => {
      await route.fetch();
      reached();
      await route.abort("connectionreset");
    });
    await page.getByRole("button", { name: "Confirm transfer" }).click();
    await atServer;
    await page.getByRole("alert").filter({ hasText: "could not be reached" }).waitFor();
    await page.unroute("**/api/transfers");
    expect(await availableOf(page, senFrom)).toBe(before - 701);

    await page.reload();
    await page
      .getByText("This transfer was confirmed before the page reloaded")
      .waitFor({ timeout: FIRST_WAIT });
    await page.getByRole("button", { name: "Confirm transfer" }).click();
    await page.getByRole("heading", { name: "Transfer complete" }).waitFor();
    expect(await page.getByTestId("new-available").innerText()).toBe(formatUsd(before - 701));
    expect(await availableOf(page, senFrom)).toBe(before - 701);
    // Once answered, a reload starts a new form: nothing is sent again.
    await page.reload();
    await page.getByRole("heading", { name: "Transfer details" }).waitFor();
    expect(await availableOf(page, senFrom)).toBe(before - 701);
  });

  type Draft = DraftListResponse["drafts"][number];
  let wireReleased: Promise<Draft> | undefined;
  /**
   * A released wire for the tests that read one: the wire the drafting test released in the
   * browser when it ran first, else one drafted and released through the routes here, so each
   * test also runs alone (`-t`) and one failure does not take the others down.
   */
  const releasedWire = (): Promise<Draft> =>
    (wireReleased ??= (async () => {
      const drafted = await preparer.page.request.post(`${app.url}/api/wires`, {
        data: {
          idempotencyKey: crypto.randomUUID(),
          originator_account_number: dda,
          amount: "1,500.00",
          beneficiary_name: "E2E ACME SUPPLIES",
          beneficiary_account_number: "77001",
          beneficiary_address1: "1 Harbour Road",
          receiving_bank_routing_id: "021000021",
        },
      });
      expect(drafted.status()).toBe(200);
      const { id, version } = (await drafted.json()).draft as Draft;
      const released = await approver.page.request.post(`${app.url}/api/drafts/${id}/release`, {
        data: { version },
      });
      expect(released.status(), await released.text()).toBe(200);
      const wire = (await openDrafts(approver.page)).find((d) => d.id === id);
      expect(wire?.status).toBe("released");
      return wire as Draft;
    })());

  it("a preparer drafts a wire (the ABA check digit is checked before submit); its preparer cannot release it; an approver does", async () => {
    const { page } = preparer;
    await page.goto(`${app.url}/wires/new`);
    await page.getByLabel("Receiving bank ABA routing number").fill("021000022");
    await page.getByLabel("Receiving bank name").focus();
    await page.getByText("Enter a 9-digit ABA routing number with a valid check digit").waitFor();
    await check(page, "wire-edit");
    const wire = await draftWireInUi(page, {
      from: dda,
      amount: "1,500.00",
      beneficiary: "E2E ACME SUPPLIES",
      account: "77001",
    });
    expect(wire.amountCents).toBe(150_000);

    // The approver's own draft has no Release button, and the route refuses it.
    const own = await approver.page.request.post(`${app.url}/api/wires`, {
      data: {
        idempotencyKey: crypto.randomUUID(),
        originator_account_number: dda,
        amount: "3.00",
        beneficiary_name: "E2E OWN DRAFT",
        beneficiary_account_number: "77002",
        beneficiary_address1: "2 Quay",
      },
    });
    expect(own.status()).toBe(200);
    const ownDraft = (await own.json()).draft;
    await approver.page.goto(`${app.url}/drafts`);
    const ownRow = approver.page.locator(`tr[data-draft="${ownDraft.id}"]`);
    await ownRow.waitFor();
    expect(await ownRow.getByRole("button", { name: "Release" }).count()).toBe(0);
    expect(await ownRow.innerText()).toContain("Another approver releases it");
    const refused = await approver.page.request.post(`${app.url}/api/drafts/${ownDraft.id}/release`, {
      data: { version: 1 },
    });
    expect(refused.status()).toBe(403);
    const preparerTry = await page.request.post(`${app.url}/api/drafts/${wire.id}/release`, {
      data: { version: 1 },
    });
    expect(preparerTry.status()).toBe(403);
    await check(approver.page, "drafts");

    const before = await availableOf(approver.page, dda);
    const row = approver.page.locator(`tr[data-draft="${wire.id}"]`);
    await row.getByRole("button", { name: "Release" }).click();
    const dialog = approver.page.getByRole("dialog", { name: "Release this payment?" });
    await dialog.waitFor();
    await check(approver.page, "drafts-release-dialog");
    await dialog.getByRole("button", { name: "Release payment" }).click();
    await approver.page.getByText(/Released\. The bank's payment id is O/).waitFor();
    const released = (await openDrafts(approver.page)).find((d) => d.id === wire.id);
    expect(released?.status).toBe("released");
    wireReleased ??= Promise.resolve(released as Draft);
    expect(await availableOf(approver.page, dda)).toBe(before - 150_000);
  });

  it("the released wire is on the payments page, and after settlement in history with its payment id", async () => {
    const wire = await releasedWire();
    const { page } = approver;
    await page.goto(`${app.url}/accounts`);
    await page.getByRole("link", { name: "Payments" }).click();
    await page.getByRole("heading", { name: "Payments", exact: true, level: 1 }).waitFor();
    await page.getByLabel("Account", { exact: true }).selectOption(dda);
    await page.getByLabel("Direction").selectOption("outgoing");
    await page.getByRole("button", { name: "Show payments" }).click();
    const link = page.getByRole("link", { name: wire.paymentId as string });
    await link.waitFor({ timeout: FIRST_WAIT });
    await check(page, "payments");
    // Export CSV downloads the payments the filters match, this wire among them.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^payments-${dda}-\\d{4}-\\d{2}-\\d{2}-to-`));
    const rows = parseCsv(fs.readFileSync(await download.path(), "utf8"));
    expect(rows[0].slice(0, 3)).toEqual(["Date", "Payment ID", "Direction"]);
    const mine = rows.find((r) => r[1] === wire.paymentId);
    expect(mine?.[2]).toBe("Outgoing");
    expect(rows.slice(1).every((r) => r[2] === "Outgoing")).toBe(true);
    await sandbox("/sandbox/settle", {});
    await link.click();
    await page.getByRole("heading", { name: `Payment ${wire.paymentId}` }).waitFor();
    await page.getByText("E2E ACME SUPPLIES").first().waitFor();
    await page.getByRole("link", { name: "Open in history" }).waitFor({ timeout: FIRST_WAIT });
    expect(await page.getByRole("region", { name: "In the account's history" }).innerText()).toContain(
      wire.paymentId as string,
    );
    await check(page, "payment-detail");
  });

  it("two approvers releasing one draft at the same moment make one wire", async () => {
    const d = await draftWireInUi(preparer.page, {
      from: dda,
      amount: "2,222.22",
      beneficiary: "E2E RACE",
      account: "77003",
    });
    const pages = [approver.page, admin.page];
    for (const p of pages) {
      await p.goto(`${app.url}/drafts`);
      await p.locator(`tr[data-draft="${d.id}"]`).getByRole("button", { name: "Release" }).click();
      await p.getByRole("dialog", { name: "Release this payment?" }).waitFor();
    }
    await Promise.all(
      pages.map((p) => p.getByRole("dialog").getByRole("button", { name: "Release payment" }).click()),
    );
    const outcomes = await Promise.all(
      pages.map((p) =>
        Promise.race([
          p
            .getByText(/Released\. The bank's payment id is/)
            .waitFor()
            .then(() => "released"),
          p
            .getByRole("dialog")
            .getByRole("alert")
            .waitFor()
            .then(() => "refused"),
        ]),
      ),
    );
    expect(outcomes.sort()).toEqual(["refused", "released"]);
    // Around the bank's today (its sandbox clock may run ahead of this machine's).
    const clock = await fetch(`${demo.bankUrl}/sandbox/clock`, {
      headers: { [BANK_HEADERS.sandboxKey]: demo.sandboxKey },
    });
    const { businessDate: today } = (await clock.json()) as { businessDate: string };
    const from = addDays(today, -5);
    const tomorrow = addDays(today, 1);
    const list = (await (
      await approver.page.request.get(
        `${app.url}/api/payments?account=${dda}&from=${from}&to=${tomorrow}&direction=outgoing&pageSize=100`,
      )
    ).json()) as PaymentsResponse;
    expect(list.payments.filter((p) => p.counterparty === "E2E RACE")).toHaveLength(1);
  });

  it("above the release threshold a SEN transfer becomes a draft another user releases; a wire is rejected with a reason; both audited with the bank's answer", async () => {
    const settings = `${app.url}/api/admin/settings`;
    const { senReleaseThresholdCents: was } = (await (await admin.page.request.get(settings)).json())
      .settings;
    const set = await admin.page.request.put(settings, { data: { senReleaseThresholdCents: 10_000 } });
    expect(set.status()).toBe(200);
    try {
      await aboveTheThreshold();
    } finally {
      // The threshold goes back, so the tests that send more than $100 alone pass in any order: a
      // raise waits for a second administrator, who approves it.
      const raise = await admin.page.request.put(settings, { data: { senReleaseThresholdCents: was } });
      expect(raise.status()).toBe(202);
      const second = await signIn("admin2@northwind.example");
      try {
        const id = (await raise.json()).requested[0].id as string;
        const approved = await second.page.request.post(`${app.url}/api/admin/changes/${id}/approve`);
        expect(approved.status(), await approved.text()).toBe(200);
      } finally {
        await second.context.close();
      }
    }
  });

  async function aboveTheThreshold() {
    const { page } = preparer;
    await page.goto(`${app.url}/transfers/new`);
    const before = await availableOf(page, senFrom);
    await expect.poll(() => page.getByLabel("From account").locator("option").count()).toBeGreaterThan(2);
    await page.getByLabel("From account").selectOption(senFrom);
    await page.getByLabel("To account").fill(senTo);
    await page.getByLabel("Amount (USD)").fill("150.00");
    await page.getByRole("button", { name: "Review transfer" }).click();
    await page.getByRole("button", { name: "Confirm draft" }).click();
    await page.getByRole("heading", { name: "Sent for release" }).waitFor();
    await page.getByRole("button", { name: "New transfer" }).click();
    expect(await availableOf(page, senFrom)).toBe(before);
    const senDraft = (await openDrafts(page)).find((d) => d.kind === "sen" && d.amountCents === 15_000);
    if (!senDraft) throw new Error("the SEN draft is not listed");

    await approver.page.goto(`${app.url}/drafts`);
    await approver.page
      .locator(`tr[data-draft="${senDraft.id}"]`)
      .getByRole("button", { name: "Release" })
      .click();
    await approver.page.getByRole("dialog").getByRole("button", { name: "Release payment" }).click();
    await approver.page.getByText("Released: the transfer is complete.").waitFor();
    expect(await availableOf(page, senFrom)).toBe(before - 15_000);

    const toReject = await draftWireInUi(page, {
      from: dda,
      amount: "99.00",
      beneficiary: "E2E REJECT ME",
      account: "77004",
    });
    await approver.page.goto(`${app.url}/drafts`);
    await approver.page
      .locator(`tr[data-draft="${toReject.id}"]`)
      .getByRole("button", { name: "Reject" })
      .click();
    const dialog = approver.page.getByRole("dialog", { name: "Reject this payment?" });
    await dialog.getByRole("button", { name: "Reject payment" }).click();
    await dialog.getByText("Say why the draft is rejected").waitFor();
    await check(approver.page, "drafts-reject-dialog");
    await dialog.getByLabel("Reason").fill("Duplicate of invoice 4411");
    await dialog.getByRole("button", { name: "Reject payment" }).click();
    await approver.page.getByText("Rejected: E2E REJECT ME, reason recorded.").waitFor();

    const wire = await releasedWire();
    const audit = (
      (await (await admin.page.request.get(`${app.url}/api/admin/audit`)).json()) as AuditResponse
    ).entries;
    const release = audit.find((e) => e.target === senDraft.id && e.action === "draft.release.sen");
    expect(release?.result).toBe("released");
    expect(JSON.stringify(release?.detail)).toContain("MESSAGE");
    const rejected = audit.find((e) => e.target === toReject.id && e.action === "draft.reject.wire");
    expect(rejected?.detail).toMatchObject({ reason: "Duplicate of invoice 4411" });
    const wireRelease = audit.find((e) => e.target === wire.id && e.action === "draft.release.wire");
    expect(JSON.stringify(wireRelease?.detail)).toContain(wire.paymentId as string);
  }

  it("saved beneficiaries: added, changed and deleted by keyboard on their own page, audited, and one fills the wire form", async () => {
    const { page } = preparer;
    await page.goto(`${app.url}/accounts`);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Beneficiaries" }).click();
    await page.getByRole("heading", { name: "Saved beneficiaries", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Add a beneficiary" }).press("Enter");
    await page.getByLabel("Saved as").fill("E2E GLOBEX");
    await page.getByLabel("Name", { exact: true }).fill("E2E GLOBEX CORP");
    await page.getByLabel("Account number", { exact: true }).fill("88001");
    await page.getByLabel("Address line 1").fill("9 Dock Street");
    await page.getByLabel("Receiving bank ABA routing number").fill("021000022");
    await page.getByLabel("Receiving bank name").focus();
    await page.getByText("Enter a 9-digit ABA routing number with a valid check digit").waitFor();
    await page.getByLabel("Receiving bank ABA routing number").fill("021000021");
    await check(page, "beneficiaries-add");
    await page.getByRole("button", { name: "Save beneficiary" }).press("Enter");
    await page.getByRole("status").filter({ hasText: "Saved “E2E GLOBEX”." }).waitFor();
    const row = page.locator('tr[data-beneficiary="E2E GLOBEX"]');
    await row.waitFor();

    await row.getByRole("button", { name: "Change E2E GLOBEX" }).press("Enter");
    await expect.poll(() => page.getByLabel("Name", { exact: true }).inputValue()).toBe("E2E GLOBEX CORP");
    await page.getByLabel("Name", { exact: true }).fill("E2E GLOBEX EUROPE");
    await page.getByRole("button", { name: "Save changes" }).press("Enter");
    await page.getByRole("status").filter({ hasText: "Changed “E2E GLOBEX”." }).waitFor();
    await expect.poll(() => row.innerText()).toContain("E2E GLOBEX EUROPE");
    await check(page, "beneficiaries");

    // A new beneficiary fills a wire once another person approves it.
    expect(await row.innerText()).toContain("New: waiting for approval");
    await approver.page.goto(`${app.url}/beneficiaries`);
    await approver.page
      .locator('tr[data-beneficiary="E2E GLOBEX"]')
      .getByRole("button", { name: "Approve E2E GLOBEX" })
      .press("Enter");
    const approve = approver.page.getByRole("dialog", { name: "Approve this new beneficiary?" });
    await approve.getByRole("button", { name: "Approve", exact: true }).press("Enter");
    await approver.page.getByRole("status").filter({ hasText: "Approved “E2E GLOBEX”" }).waitFor();

    await page.goto(`${app.url}/wires/new`);
    const picker = page.getByLabel("Fill from a saved beneficiary");
    await expect.poll(() => picker.locator("option").allInnerTexts()).toContain("E2E GLOBEX");
    await picker.selectOption({ label: "E2E GLOBEX" });
    await expect.poll(() => page.getByLabel("Name", { exact: true }).inputValue()).toBe("E2E GLOBEX EUROPE");
    expect(await page.getByLabel("Receiving bank ABA routing number").inputValue()).toBe("021000021");

    await page.goto(`${app.url}/beneficiaries`);
    await row.getByRole("button", { name: "Delete E2E GLOBEX" }).press("Enter");
    const dialog = page.getByRole("dialog", { name: "Delete this saved beneficiary?" });
    await dialog.waitFor();
    await check(page, "beneficiaries-delete-dialog");
    await dialog.getByRole("button", { name: "Delete", exact: true }).press("Enter");
    await page.getByRole("status").filter({ hasText: "Deleted “E2E GLOBEX”." }).waitFor();
    await row.waitFor({ state: "detached" });

    const audit = (await (
      await admin.page.request.get(`${app.url}/api/admin/audit`)
    ).json()) as AuditResponse;
    const actions = audit.entries.map((e) => e.action);
    for (const a of ["beneficiary.create", "beneficiary.update", "beneficiary.approve", "beneficiary.delete"])
      expect(actions).toContain(a);
  });

  it("a preparer corrects a pending wire draft from the drafts page; the approver's old version releases nothing, the corrected one is paid", async () => {
    const { page } = preparer;
    const first = await draftWireInUi(page, {
      from: dda,
      amount: "2.00",
      beneficiary: "E2E TO CORRECT",
      account: "77003",
    });
    await page.goto(`${app.url}/drafts`);
    await page.getByRole("link", { name: "Correct the wire to E2E TO CORRECT" }).click();
    await page.getByRole("heading", { name: "Correct a wire draft", level: 1 }).waitFor();
    await expect.poll(() => page.getByLabel("Amount (USD)").inputValue()).toBe("2");
    await check(page, "wire-correct");
    await page.getByLabel("Amount (USD)").fill("2.50");
    await page.getByRole("button", { name: "Review wire" }).click();
    await page.getByRole("heading", { name: "Review the wire" }).waitFor();
    await page.getByRole("button", { name: "Save draft for release" }).click();
    await page.getByRole("heading", { name: "Draft changed: version 2 waits for release" }).waitFor();

    const stale = await approver.page.request.post(`${app.url}/api/drafts/${first.id}/release`, {
      data: { version: first.version },
    });
    expect(stale.status()).toBe(409);
    await approver.page.goto(`${app.url}/drafts`);
    const row = approver.page.locator(`tr[data-draft="${first.id}"]`);
    await expect.poll(() => row.innerText()).toContain("$2.50");
    await row.getByRole("button", { name: "Release" }).click();
    const dialog = approver.page.getByRole("dialog", { name: "Release this payment?" });
    await dialog.getByRole("button", { name: "Release payment" }).click();
    await approver.page.getByText(/Released\. The bank's payment id is O/).waitFor();
    const done = (await openDrafts(approver.page)).find((d) => d.id === first.id);
    expect(done).toMatchObject({ status: "released", version: 2, amountCents: 250 });
    const atBank = (await (
      await approver.page.request.get(`${app.url}/api/payments/${done?.paymentId}?account=${dda}`)
    ).json()) as { amountCents: number };
    expect(atBank.amountCents).toBe(250);
  });

  it("a new SEN account appears in the accounts list without a reload", async () => {
    const { page } = preparer;
    await page.goto(`${app.url}/accounts/new-sen`);
    await page.getByRole("button", { name: "Open SEN account" }).click();
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(3);
    // Each says what to do, in the field's own words.
    for (const label of [
      "an expected balance",
      "an expected incoming per month",
      "an expected outgoing per month",
    ])
      expect(await page.getByText(`Enter ${label}`, { exact: true }).count()).toBe(1);
    await page.getByLabel("Expected balance ($)").fill("25,000");
    await page.getByLabel("Expected incoming per month ($)").fill("100000");
    await page.getByLabel("Expected outgoing per month ($)").fill("90000");
    await page.getByLabel("Title line 1").fill("E2E SETTLEMENT");
    await page.getByRole("button", { name: "Open SEN account" }).click();
    const status = page.getByRole("status").filter({ hasText: "is open" });
    await status.waitFor();
    const number = /Account (\d+) is open/.exec(await status.innerText())?.[1] as string;
    await check(page, "new-sen");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Accounts" }).click();
    // The list shows numbers masked: the new account's card is found by the page it opens.
    await page.locator(`a[href="/accounts/${number}"]`).first().waitFor({ timeout: FIRST_WAIT });
  });
});
