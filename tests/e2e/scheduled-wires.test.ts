// Wire series on the Scheduled page, in real Chromium against the product as `npm start` starts it:
// a preparer chooses "Wire", fills it from a saved beneficiary and schedules it monthly, all by
// keyboard; the list says it in words with the payee's name; an approver approves it (a wire always
// needs a second person); the bank's clock moves to its first day and exactly one wire of its amount
// is at the bank, the one its history names. Then the series is paused, resumed, changed (a new
// amount needs approval again, and so does another payee, chosen from the saved beneficiaries in
// the change form), an occurrence skipped and the series cancelled. A bad amount is a field error
// under Amount and schedules nothing. Looked at with axe, the wire form also at 390 px.
import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daysBetween } from "../../lib/bank-api/dates.ts";
import type { AccountsResponse } from "../../lib/dashboard-api/index.ts";
import type { PaymentsResponse } from "../../lib/dashboard-api/payments.ts";
import type { SchedulesResponse, SeriesResponse } from "../../lib/dashboard-api/schedules.ts";
import type { Beneficiary, BeneficiaryDecisionResponse } from "../../lib/dashboard-api/wires.ts";
import { dayInWords } from "../../lib/format/dates.ts";
import { FIRST_WAIT, seriousAxeViolations, shot } from "../helpers/browser.ts";
import { browserWorld } from "../helpers/browser-world.ts";

const world = browserWorld({ env: { SCHEDULE_RUN_SECONDS: "1" }, timeoutMs: 1_200_000 });

const PAYEE = {
  label: "E2E Harbor",
  fields: {
    beneficiary_name: "E2E HARBOR SUPPLIES",
    beneficiary_account_number: "55443322",
    beneficiary_address1: "9 Dock Street",
    receiving_bank_routing_id: "021000021",
    receiving_bank_name: "E2E RECEIVING BANK",
  },
};
/** A second saved beneficiary, approved: the series' payee is changed to it. */
const MILL = {
  label: "E2E Mill",
  fields: {
    beneficiary_name: "E2E MILL WORKS",
    beneficiary_account_number: "99887766",
    beneficiary_address1: "2 Weir Lane",
    receiving_bank_routing_id: "026009593",
    receiving_bank_name: "E2E SECOND BANK",
  },
};
const SERIES = "E2E supplier retainer";

/** Types into a field as a person does: focus, clear, keys. */
async function typeInto(page: Page, field: Locator, text: string) {
  await field.focus();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Delete");
  await page.keyboard.type(text);
}

/** Chooses a select's option by the arrow keys until its text contains `words`. */
async function chooseByKeys(page: Page, select: Locator, words: string) {
  await select.focus();
  await page.keyboard.press("Home");
  for (let i = 0; i < 40; i++) {
    const chosen = await select.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent ?? "");
    if (chosen.includes(words)) return;
    await page.keyboard.press("ArrowDown");
  }
  throw new Error(`no option "${words}"`);
}

describe("wire series on the Scheduled page, in Chromium", () => {
  let preparer: { context: BrowserContext; page: Page };
  let approver: { context: BrowserContext; page: Page };
  let from: { accountNumber: string; name: string };
  let payeeId: string;
  let millId: string;

  beforeAll(async () => {
    preparer = await world.session("preparer");
    approver = await world.session("approver");
    const accounts = await world.api<AccountsResponse>(preparer.page, "/api/accounts");
    const dda = accounts.accounts.find((a) => a.type === "DDA") ?? accounts.accounts[0];
    from = { accountNumber: dda.accountNumber, name: dda.name };
    await world.demo.deposit(from.accountNumber, 500_000, "E2E SCHEDULED WIRES");
    // Saved beneficiaries, approved by a second person: only an approved one fills a wire.
    const save = async (data: typeof PAYEE) => {
      const made = await preparer.page.request.post(`${world.app.url}/api/beneficiaries`, { data });
      expect(made.status(), await made.text()).toBe(200);
      const { beneficiary } = (await made.json()) as { beneficiary: Beneficiary };
      const approved = await approver.page.request.post(
        `${world.app.url}/api/beneficiaries/${beneficiary.id}/approve`,
        { data: { changeId: beneficiary.pendingChange?.id } },
      );
      expect(approved.status(), await approved.text()).toBe(200);
      expect(((await approved.json()) as BeneficiaryDecisionResponse).beneficiary?.status).toBe("approved");
      return beneficiary.id;
    };
    payeeId = await save(PAYEE);
    millId = await save(MILL);
  });
  afterAll(async () => {
    for (const s of [preparer, approver]) await s?.context.close();
  });

  const seriesNamed = async (page: Page, name: string) =>
    (await world.api<SchedulesResponse>(page, "/api/schedules")).series.filter((s) => s.name === name);

  /** Opens the Scheduled page and chooses a wire by the arrow keys; the panel, renamed for it. */
  async function openWireForm(page: Page) {
    await page.goto(`${world.app.url}/scheduled`);
    const sen = page.getByRole("radio", { name: "SEN transfer" });
    await expect.poll(() => sen.count(), { timeout: FIRST_WAIT }).toBe(1);
    expect(await sen.isChecked()).toBe(true);
    await sen.focus();
    await page.keyboard.press("ArrowRight");
    expect(await page.getByRole("radio", { name: "Wire" }).isChecked()).toBe(true);
    const panel = page.getByRole("region", { name: "Schedule a wire" });
    await panel.waitFor();
    // The saved beneficiaries have arrived when the approved one is offered.
    const picker = panel.getByLabel("Fill from a saved beneficiary");
    await expect.poll(() => picker.locator("option").allInnerTexts()).toContain(PAYEE.label);
    return panel;
  }

  /** Fills the wire by keyboard: the series' name, the account, the saved beneficiary, then the amount. */
  async function fillWire(page: Page, panel: Locator, name: string, amount: string) {
    // The series' name comes first; the beneficiary's own Name is in the Beneficiary group.
    await typeInto(page, panel.getByLabel("Series name", { exact: true }), name);
    await chooseByKeys(page, panel.getByLabel("From account"), from.accountNumber);
    await chooseByKeys(page, panel.getByLabel("Fill from a saved beneficiary"), PAYEE.label);
    const payeeName = panel.getByRole("group", { name: "Beneficiary", exact: true }).getByLabel("Name", {
      exact: true,
    });
    await expect.poll(() => payeeName.inputValue()).toBe(PAYEE.fields.beneficiary_name);
    expect(await panel.getByLabel("Receiving bank ABA routing number").inputValue()).toBe(
      PAYEE.fields.receiving_bank_routing_id,
    );
    // The amount last: it is still focused when a test submits from it.
    await typeInto(page, panel.getByLabel("Amount (USD)"), amount);
  }

  it("schedules a monthly wire to a saved beneficiary by keyboard; approved, its first day pays exactly one wire", async () => {
    const { page } = preparer;
    const panel = await openWireForm(page);
    await fillWire(page, panel, SERIES, "4,321.09");
    await chooseByKeys(page, panel.getByLabel("Repeats"), "Monthly on the first business day");
    // Tomorrow at the bank: nothing falls due before the approver has approved.
    const { today } = await world.api<SchedulesResponse>(page, "/api/schedules");
    const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    await panel.getByLabel("Starts on").fill(tomorrow);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "scheduled-wire-form");
    await panel.getByRole("button", { name: "Schedule wire" }).focus();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.getByRole("status").first().innerText(), { timeout: 30_000 })
      .toContain(`Scheduled: ${SERIES}, Monthly on the first business day.`);

    // Listed in words, with the payee's name, the amount and the rule.
    const card = page.getByRole("region", { name: SERIES });
    await card.waitFor();
    const words = await card.innerText();
    expect(words).toContain(PAYEE.fields.beneficiary_name);
    expect(words).toContain("$4,321.09");
    expect(words).toContain("Monthly on the first business day");
    expect(words).toContain("(wire)");
    expect(words).toContain("Waiting for approval");
    const [series] = await seriesNamed(page, SERIES);
    expect(series).toMatchObject({
      kind: "wire",
      amountCents: 432_109,
      fromAccount: from.accountNumber,
      counterparty: PAYEE.fields.beneficiary_name,
      beneficiaryId: payeeId,
      approved: false,
      approvalsRequired: 1,
    });
    expect(series.request).toMatchObject({ amount: 4321.09, ...PAYEE.fields });
    const upcoming = page.getByRole("table", { name: "Upcoming scheduled payments" });
    expect(await upcoming.innerText()).toContain(`${from.accountNumber} → ${PAYEE.fields.beneficiary_name}`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "scheduled-wire-listed");

    // The approver approves it by keyboard.
    const a = approver.page;
    await a.goto(`${world.app.url}/scheduled`);
    const approve = a.getByRole("region", { name: SERIES }).getByRole("button", { name: "Approve series" });
    await expect.poll(() => approve.count(), { timeout: FIRST_WAIT }).toBe(1);
    await approve.focus();
    await a.keyboard.press("Enter");
    await expect.poll(() => a.getByRole("status").first().innerText()).toContain(`You approved ${SERIES}.`);

    // The bank's clock moves to the series' first day, and not past its second.
    const first = series.nextDay as string;
    const bankToday = await world.demo.today();
    await world.demo.sandbox("/sandbox/clock", { advanceSeconds: daysBetween(bankToday, first) * 86_400 });
    const historyOf = async () =>
      (await world.api<SeriesResponse>(page, `/api/schedules/${series.id}`)).history;
    await expect
      .poll(async () => (await historyOf()).map((h) => `${h.day} ${h.status}`), { timeout: 120_000 })
      .toEqual([`${first} sent`]);
    const [paid] = await historyOf();
    expect(paid.amountCents).toBe(432_109);
    expect(paid.paymentId).toBeTruthy();

    // At the bank: exactly one wire of that amount to the payee, the one the history names, also
    // after more runs of the schedule (one a second here).
    const wiresAtBank = async () =>
      (
        await world.api<PaymentsResponse>(
          page,
          `/api/payments?account=${from.accountNumber}&from=${first}&to=${first}&direction=outgoing`,
        )
      ).payments.filter((p) => p.amountCents === 432_109);
    await expect.poll(async () => (await wiresAtBank()).length, { timeout: 30_000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 5_000));
    const wires = await wiresAtBank();
    expect(wires).toHaveLength(1);
    expect(wires[0]).toMatchObject({
      paymentId: paid.paymentId,
      counterparty: PAYEE.fields.beneficiary_name,
    });

    await page.goto(`${world.app.url}/scheduled`);
    const listed = page.getByRole("region", { name: SERIES });
    const historyButton = listed.getByRole("button", { name: "History" });
    await expect.poll(() => historyButton.count(), { timeout: FIRST_WAIT }).toBe(1);
    await historyButton.focus();
    await page.keyboard.press("Enter");
    const history = page.getByRole("table", { name: `History of ${SERIES}` });
    await history.waitFor();
    expect(await history.innerText()).toContain(`Payment ${paid.paymentId}`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "scheduled-wire-history");
  });

  it("pauses, resumes, changes the amount and then the payee (approval again each time), skips a day and cancels a wire series", async () => {
    const { page } = preparer;
    const [series] = await seriesNamed(page, SERIES);
    expect(series, "the first test's series").toBeTruthy();
    await page.goto(`${world.app.url}/scheduled`);
    const card = page.getByRole("region", { name: SERIES });
    const press = async (button: Locator, done: string) => {
      await button.focus({ timeout: FIRST_WAIT });
      await page.keyboard.press("Enter");
      await expect.poll(() => page.getByRole("status").first().innerText()).toContain(done);
    };
    await press(card.getByRole("button", { name: "Pause" }), `${SERIES} is paused.`);
    expect((await seriesNamed(page, SERIES))[0].status).toBe("paused");
    await press(card.getByRole("button", { name: "Resume" }), `${SERIES} goes on.`);
    expect((await seriesNamed(page, SERIES))[0].status).toBe("active");

    // A new amount: the same payee and banks, a new version waiting for approval.
    await card.getByRole("button", { name: "Edit" }).focus();
    await page.keyboard.press("Enter");
    // The change form holds the wire as stored: its payee and banks.
    const editedName = card.getByRole("group", { name: "Beneficiary", exact: true }).getByLabel("Name", {
      exact: true,
    });
    await expect.poll(() => editedName.inputValue()).toBe(PAYEE.fields.beneficiary_name);
    await typeInto(page, card.getByLabel("Amount (USD)"), "4,500.00");
    await press(card.getByRole("button", { name: "Save changes" }), `${SERIES} is changed.`);
    const [changed] = await seriesNamed(page, SERIES);
    expect(changed).toMatchObject({
      kind: "wire",
      version: series.version + 1,
      amountCents: 450_000,
      counterparty: PAYEE.fields.beneficiary_name,
      beneficiaryId: payeeId,
      approved: false,
    });
    expect(changed.request).toMatchObject({ amount: 4500, ...PAYEE.fields });
    await expect.poll(() => card.innerText()).toContain("Waiting for approval");

    // Another payee: the second saved beneficiary fills the wire; a new version, to approve again.
    await card.getByRole("button", { name: "Edit" }).focus();
    await page.keyboard.press("Enter");
    const savedPicker = card.getByLabel("Fill from a saved beneficiary");
    await expect.poll(() => savedPicker.locator("option").allInnerTexts()).toContain(MILL.label);
    await chooseByKeys(page, savedPicker, MILL.label);
    await expect
      .poll(() => card.getByLabel("Account number", { exact: true }).inputValue())
      .toBe(MILL.fields.beneficiary_account_number);
    await press(card.getByRole("button", { name: "Save changes" }), `${SERIES} is changed.`);
    const [repaid] = await seriesNamed(page, SERIES);
    expect(repaid).toMatchObject({
      version: series.version + 2,
      amountCents: 450_000,
      counterparty: MILL.fields.beneficiary_name,
      beneficiaryId: millId,
      approved: false,
    });
    expect(repaid.request).toMatchObject({ amount: 4500, ...MILL.fields });
    await expect.poll(() => card.innerText()).toContain(MILL.fields.beneficiary_name);
    expect(await card.innerText()).toContain("Waiting for approval");
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The next occurrence still due is skipped from the list of the next 90 days.
    const next = (await world.api<SchedulesResponse>(page, "/api/schedules")).upcoming.find(
      (u) => u.seriesId === series.id && u.status === "due",
    );
    expect(next, "an occurrence due in the next 90 days").toBeTruthy();
    const day = dayInWords(next?.day as string);
    await press(
      page.getByRole("button", { name: `Skip ${SERIES} on ${day}` }),
      `${SERIES} on ${day} will not be paid.`,
    );
    const skipped = (await world.api<SeriesResponse>(page, `/api/schedules/${series.id}`)).history;
    expect(skipped.find((h) => h.nominalDay === next?.nominalDay)?.status).toBe("skipped");

    await press(card.getByRole("button", { name: "Cancel series" }), `${SERIES} is cancelled.`);
    expect(await seriesNamed(page, SERIES)).toEqual([]);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it("a bad amount is a field error under Amount, and nothing is scheduled", async () => {
    const { page } = preparer;
    const panel = await openWireForm(page);
    await fillWire(page, panel, "E2E bad wire", "12.345");
    // Enter in the amount submits the form before the field is ever left (so the form has not
    // checked it itself): what shows under it is the route's 400, which names it.
    const answer = page.waitForResponse(
      (r) => r.url().endsWith("/api/schedules") && r.request().method() === "POST",
    );
    await page.keyboard.press("Enter");
    const refused = await answer;
    expect(refused.status()).toBe(400);
    expect(
      ((await refused.json()) as { error: { fields: { field: string }[] } }).error.fields.map((f) => f.field),
    ).toEqual(["wire.amount"]);
    const amount = panel.getByLabel("Amount (USD)");
    await expect.poll(() => amount.getAttribute("aria-invalid"), { timeout: 30_000 }).toBe("true");
    expect(await amount.evaluate((el) => el === document.activeElement)).toBe(true);
    const describedBy = ((await amount.getAttribute("aria-describedby")) ?? "").split(" ");
    const errorId = describedBy.find((id) => id.endsWith("-error"));
    expect(errorId).toBeTruthy();
    expect(await page.locator(`[id="${errorId}"]`).innerText()).toMatch(/decimal|cents/i);
    // The rest of the form kept what was typed, and nothing was scheduled.
    expect(await panel.getByLabel("Series name", { exact: true }).inputValue()).toBe("E2E bad wire");
    expect(await seriesNamed(page, "E2E bad wire")).toEqual([]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, "scheduled-wire-bad-amount");
  });

  it("at 390 px the wire form has no serious axe finding and nothing scrolls sideways", async () => {
    const phone = await world.session("preparer", 390);
    try {
      const { page } = phone;
      const panel = await openWireForm(page);
      await chooseByKeys(page, panel.getByLabel("Fill from a saved beneficiary"), PAYEE.label);
      await expect
        .poll(() => panel.getByLabel("Account number", { exact: true }).inputValue())
        .toBe(PAYEE.fields.beneficiary_account_number);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shot(page, "scheduled-wire-form-390");
    } finally {
      await phone.context.close();
    }
  });
});
