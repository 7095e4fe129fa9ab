// Reading money in Chromium against `npm start`, at 1440 and 390 px, axe clean: the morning check
// on the accounts page; payments and wire summaries opening on every account; one vocabulary of
// statuses (no bank status names, a canceled incoming wire not shown as money in); the release
// dialog's balance and shortfall, the bank's reason on the preparer's refused draft; the wire
// system's outage said before the click; a payment's story with names; a wire abroad that counts
// characters, checks an IBAN and names countries.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatUsd } from "../../lib/bank-api/money.ts";
import type {
  AccountsResponse,
  Draft,
  IncomingWiresResponse,
  MorningCheckResponse,
} from "../../lib/dashboard-api/index.ts";
import { FIRST_WAIT, seriousAxeViolations, shot, sidewaysOverflow } from "../helpers/browser.ts";
import { browserWorld } from "../helpers/browser-world.ts";

const tag = Date.now().toString(36).toUpperCase();

// Wires settle when the test says so; the test holds a token of the demo key beside the dashboard's.
const world = browserWorld({
  env: { BANK_SETTLE_AFTER_SECONDS: "86400", BANK_TOKEN_INTERVAL_SECONDS: "1" },
  timeoutMs: 900_000,
});

type Session = { context: BrowserContext; page: Page };
const session = (role: string): Promise<Session> => world.session(role);
const api = world.api;

/** Looks at the page at a desktop's width and a phone's: a screenshot, axe, nothing wider than the screen. */
async function look(page: Page, name: string) {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(150);
    await shot(page, `reading-${name}-${width}`);
    expect(await seriousAxeViolations(page), `${name} at ${width} px`).toEqual([]);
    if (width === 390)
      expect(await sidewaysOverflow(page), `${name}: sideways at 390 px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

let serial = 0;
/** A wire draft through the API as the page sends it, to a beneficiary no other row names. */
async function draftWire(page: Page, from: string, amount: string): Promise<Draft> {
  const beneficiary = `READ ${tag} ${++serial}`;
  const r = await page.request.post(`${world.app.url}/api/wires`, {
    data: {
      idempotencyKey: crypto.randomUUID(),
      originator_account_number: from,
      amount,
      beneficiary_name: beneficiary,
      beneficiary_account_number: "987654321",
      beneficiary_address1: "1 Harbour Road",
      receiving_bank_routing_id: "021000021",
      receiving_bank_name: "Receiving Bank NA",
      beneficiary_bank_type: "",
      beneficiary_bank_routing_id: "",
    },
  });
  expect(r.status(), await r.text()).toBe(200);
  return ((await r.json()) as { draft: Draft }).draft;
}

describe("reading money in Chromium", () => {
  let viewer: Session;
  let preparer: Session;
  let approver: Session;
  let accounts: AccountsResponse;
  let dda: AccountsResponse["accounts"][number];

  beforeAll(async () => {
    [viewer, preparer, approver] = [
      await session("viewer"),
      await session("preparer"),
      await session("approver"),
    ];
    accounts = await api<AccountsResponse>(viewer.page, "/api/accounts");
    dda = accounts.accounts.find((a) => a.type === "DDA") as AccountsResponse["accounts"][number];
  });
  afterAll(async () => {
    for (const s of [viewer, preparer, approver]) await s?.context.close();
  });

  it("opens the accounts page on the morning check: change since the last close, in and out today", async () => {
    await world.demo.deposit(dda.accountNumber, 123.45, `MORNING ${tag}`);
    const { page } = viewer;
    await page.goto(`${world.app.url}/accounts`);
    const card = page.getByRole("region", { name: "Since the last close" });
    await card.getByRole("table").waitFor({ timeout: FIRST_WAIT });
    const m = await api<MorningCheckResponse>(page, "/api/accounts/morning");
    const mine = m.accounts.find((a) => a.accountNumber === dda.accountNumber);
    expect(mine?.inCents).toBeGreaterThanOrEqual(12_345);
    const text = await card.innerText();
    expect(text).toContain(formatUsd(m.totals.inCents));
    expect(text).toContain(formatUsd(m.totals.outCents));
    expect(text).toContain(dda.name);
    await look(page, "accounts");
  });

  it("opens payments and wire summaries on every account, in the app's status words", async () => {
    // An incoming wire waiting, and one canceled: the first reads "Awaiting approval", the second moves no money.
    const waiting = await world.demo.sandbox<{ payment_id: string }>("/sandbox/incoming-wires", {
      accountNumber: dda.accountNumber,
      amount: 777.01,
      originatorName: `READ WAIT ${tag}`,
    });
    const toCancel = await world.demo.sandbox<{ payment_id: string }>("/sandbox/incoming-wires", {
      accountNumber: dda.accountNumber,
      amount: 888.02,
      originatorName: `READ CANCEL ${tag}`,
    });
    const q = await api<IncomingWiresResponse>(approver.page, "/api/incoming-wires");
    const w = q.wires.find((x) => x.paymentId === toCancel.payment_id);
    expect(w).toBeTruthy();
    const cancel = await approver.page.request.post(
      `${world.app.url}/api/incoming-wires/${toCancel.payment_id}`,
      {
        data: { accountNumber: dda.accountNumber, action: "cancel", paymentTimestamp: w?.paymentTimestamp },
      },
    );
    expect(cancel.status(), await cancel.text()).toBe(200);

    const { page } = viewer;
    await page.goto(`${world.app.url}/payments`);
    const list = page.getByRole("table", { name: "Payments of every account" });
    await list.waitFor({ timeout: FIRST_WAIT });
    expect(await page.getByRole("combobox", { name: "Account", exact: true }).inputValue()).toBe("all");
    const waitingRow = list.getByRole("row").filter({ hasText: waiting.payment_id });
    await waitingRow.waitFor();
    expect(await waitingRow.innerText()).toContain("Awaiting approval");
    expect(await waitingRow.innerText()).toContain(`${dda.name} · ${dda.accountNumber}`);
    const canceledRow = list.getByRole("row").filter({ hasText: toCancel.payment_id });
    const canceledText = await canceledRow.innerText();
    expect(canceledText).toContain("Canceled");
    expect(canceledText).toContain("$888.02");
    expect(canceledText).not.toContain("+$888.02");
    const main = await page.getByRole("main").innerText();
    for (const bankWord of ["Pre-Approval", "In-Progress"]) expect(main).not.toContain(bankWord);
    await look(page, "payments");

    await page.goto(`${world.app.url}/wire-summaries`);
    await page.getByRole("heading", { name: "Wire summaries", level: 1 }).waitFor();
    expect(await page.getByRole("combobox", { name: "Account", exact: true }).inputValue()).toBe("all");
    await page
      .getByRole("table", { name: /wires of every account/ })
      .or(page.getByText("No wire summaries", { exact: true }))
      .or(page.getByText("The summaries could not be read"))
      .first()
      .waitFor({ timeout: FIRST_WAIT });
    expect(await page.getByText("The summaries could not be read").count()).toBe(0);
    await look(page, "wire-summaries");
  });

  it("shows the balance and shortfall before a release, and the bank's reason to the preparer", async () => {
    const fresh = (await api<AccountsResponse>(approver.page, "/api/accounts")).accounts.find(
      (a) => a.accountNumber === dda.accountNumber,
    ) as AccountsResponse["accounts"][number];
    // $1,000.00 more than the account holds: the bank refuses it at release.
    const shortCents = 100_000;
    const tooBig = await draftWire(
      preparer.page,
      dda.accountNumber,
      ((fresh.availableCents + shortCents) / 100).toFixed(2),
    );
    const approvers = [approver, await session("admin")];
    let refused = false;
    for (const [i, who] of approvers.entries()) {
      const { page } = who;
      await page.goto(`${world.app.url}/drafts`);
      const row = page.locator(`tr[data-draft="${tooBig.id}"]`);
      await row.waitFor({ timeout: FIRST_WAIT });
      await row.getByRole("button", { name: /^(Release|Approve)$/ }).click();
      const dialog = page.getByRole("dialog");
      await expect.poll(() => dialog.innerText()).toMatch(/Short by \$/);
      const text = await dialog.innerText();
      expect(text).toContain(`Available in ${dda.name} ••••${dda.accountNumber.slice(-4)}`);
      expect(text).toMatch(/Short by \$[\d,]+\.\d{2}\./);
      if (i === 0) await look(page, "release-shortfall");
      await dialog.getByRole("button", { name: /^(Release payment|Approve \(first of two\))$/ }).click();
      if (tooBig.approvalsRequired === 1 || i === 1) {
        await dialog.getByText(/insufficient/i).waitFor();
        refused = true;
        await dialog.getByRole("button", { name: "Cancel" }).click();
        break;
      }
      await dialog.waitFor({ state: "detached" });
    }
    expect(refused).toBe(true);
    await approvers[1].context.close();

    // The preparer reads why on their draft, among all recent drafts.
    const { page } = preparer;
    await page.goto(`${world.app.url}/drafts`);
    await page.getByLabel("All recent drafts").check();
    const mine = page.locator(`tr[data-draft="${tooBig.id}"]`);
    await mine.waitFor({ timeout: FIRST_WAIT });
    await expect.poll(() => mine.innerText()).toMatch(/Bank's reason: .*insufficient/i);
    expect(await mine.innerText()).toContain("Refused by the bank");
    await look(page, "drafts-refused");
  });

  it("says the wire system is down in the release dialog before anyone confirms", async () => {
    const first = await draftWire(preparer.page, dda.accountNumber, "12.34");
    const second = await draftWire(preparer.page, dda.accountNumber, "23.45");
    const { page } = approver;
    await world.demo.sandbox("/sandbox/wire-system", { status: "down" });
    try {
      await page.goto(`${world.app.url}/drafts`);
      await page.locator(`tr[data-draft="${first.id}"]`).getByRole("button", { name: "Release" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Release payment" }).click();
      await page.getByRole("dialog").waitFor({ state: "detached" });
      await page.getByRole("status").filter({ hasText: "queued for reprocessing" }).waitFor();

      await page.locator(`tr[data-draft="${second.id}"]`).getByRole("button", { name: "Release" }).click();
      const dialog = page.getByRole("dialog", { name: "Release this payment?" });
      await dialog.getByText(/The wire system is down/).waitFor();
      const text = await dialog.innerText();
      expect(text).toContain("puts the wire in the bank's backup log");
      expect(text).not.toContain("sends the payment to the bank now");
      await look(page, "release-outage");
      await dialog.getByRole("button", { name: "Cancel" }).click();
    } finally {
      await world.demo.sandbox("/sandbox/wire-system", { status: "up" });
    }
  });

  it("tells a payment's story with names and times, its fields in words, the raw record one click away", async () => {
    const d = await draftWire(preparer.page, dda.accountNumber, "45.67");
    const { page } = approver;
    await page.goto(`${world.app.url}/drafts`);
    await page.locator(`tr[data-draft="${d.id}"]`).getByRole("button", { name: "Release" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Release payment" }).click();
    const announced = page.getByRole("status").filter({ hasText: "The bank's payment id is" });
    await announced.waitFor();
    const paymentId = /payment id is (\w+)/.exec(await announced.innerText())?.[1] as string;

    await viewer.page.goto(`${world.app.url}/payments/${paymentId}?account=${dda.accountNumber}`);
    const timeline = viewer.page.getByRole("region", { name: "Timeline" });
    await timeline.getByRole("listitem").first().waitFor({ timeout: FIRST_WAIT });
    const steps = await timeline.getByRole("listitem").allInnerTexts();
    const preparerUser = world.app.users.find((u) => u.role === "preparer")?.email as string;
    const approverUser = world.app.users.find((u) => u.role === "approver")?.email as string;
    expect(steps[0]).toContain(`Prepared by`);
    expect(steps[0]).toContain(preparerUser);
    expect(steps.find((s) => s.startsWith("Released"))).toContain(approverUser);
    expect(steps.some((s) => s.startsWith("Accepted by the bank"))).toBe(true);
    expect(await timeline.innerText()).toMatch(/Times in New York time/);
    const main = viewer.page.getByRole("main");
    expect(await main.innerText()).not.toContain("payment_status");
    expect(await main.innerText()).toContain("In progress");
    await look(viewer.page, "payment-story");
    await viewer.page.getByText("The bank's record as sent (wire names)").click();
    await expect.poll(() => main.innerText()).toContain('"payment_status": "In-Progress"');
  });

  it("counts a wire's limited text instead of cutting it, checks an IBAN and names countries", async () => {
    const { page } = preparer;
    await page.goto(`${world.app.url}/wires/new`);
    const name = page.getByLabel("Name", { exact: true });
    await name.waitFor({ timeout: FIRST_WAIT });
    const long = "Commerzbank Filiale Frankfurt am Main";
    await name.fill(long);
    expect(await name.inputValue()).toBe(long);
    await page.getByText(`${long.length} of 35 characters: shorten by ${long.length - 35}`).waitFor();
    const account = page.getByLabel("Account number", { exact: true });
    await account.fill("DE89 3704 0044 0532 0130 01");
    await page.getByText(/Looks like an IBAN of Germany \(DE\)/).waitFor();
    await page.getByLabel("Beneficiary bank identified by").selectOption("SWIFT");
    await page.getByLabel("Beneficiary bank ABA or BIC").fill("DEUTDEFF500");
    await page.getByText("BIC of a bank in Germany (DE).").waitFor();
    await page.getByRole("button", { name: "Review wire" }).click();
    await expect.poll(() => account.getAttribute("aria-invalid")).toBe("true");
    await page.getByText("Enter a valid IBAN: its check digits do not match (ISO 13616)").waitFor();
    await page.getByText("Shorten to 35 characters or fewer").waitFor();
    await look(page, "wire-abroad");
    await account.fill("DE89 3704 0044 0532 0130 00");
    await page.getByText("IBAN of Germany (DE): check digits valid.").waitFor();
  });
});
