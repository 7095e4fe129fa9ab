// Every CSV export downloaded with text an outsider chose in it: an incoming wire's originator
// name (through the bank's sandbox), a saved beneficiary's label and a user's name (through the
// dashboard's routes). Each text cell comes out quoted and unable to start a formula in a
// spreadsheet, whichever separator the spreadsheet splits on; amounts stay numbers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { UserRow } from "../../lib/auth/users.ts";
import { addDays, businessDayFormatter } from "../../lib/bank-api/dates.ts";
import { config } from "../../lib/config.ts";
import type { HistoryResponse } from "../../lib/dashboard-api/index.ts";
import { parseCsv } from "../../lib/format/csv.ts";
import { historyToCsv } from "../../lib/format/history-csv.ts";
import { sandbox, type TestBank } from "../helpers/bank.ts";
import { expectSafeCsv } from "../helpers/csv-safety.ts";
import { invoke, openRouteWorld, type RouteWorld, testUser } from "../helpers/routes.ts";

const mod = {
  decide: () => import("../../app/api/incoming-wires/[paymentId]/route.ts"),
  history: () => import("../../app/api/accounts/[accountNumber]/history/route.ts"),
  paymentsExport: () => import("../../app/api/payments/export/route.ts"),
  auditExport: () => import("../../app/api/admin/audit/export/route.ts"),
  beneficiaries: () => import("../../app/api/beneficiaries/route.ts"),
  adminUser: () => import("../../app/api/admin/users/[id]/route.ts"),
};

/** The originator name of the attack: a spreadsheet splitting on ";" would run `=cmd...`. */
const ORIGINATOR = "x;=cmd|' /C calc'!A0";
const LABEL = "@SUM(1+1);-2+3";
const NAME = "=cmd|' /C calc'!A0 ＋1";

let bank: TestBank;
let world: RouteWorld;
let account: string;
let approver: UserRow;
let admin: UserRow;
let preparer: UserRow;
let viewer: UserRow;
let today: string;

beforeAll(async () => {
  world = await openRouteWorld("csv-exports", {
    customer: "Formula Exports LLC",
    bankEnv: { BANK_SETTLE_AFTER_SECONDS: "86400" },
  });
  ({ bank } = world);
  account = await world.customer.account("DDA", 1_000);
  approver = await testUser(world.db, "approver", "approver@csv.example");
  admin = await testUser(world.db, "admin", "admin@csv.example");
  preparer = await testUser(world.db, "preparer", "preparer@csv.example");
  viewer = await testUser(world.db, "viewer", "viewer@csv.example");
  today = businessDayFormatter(config().timeZone)(new Date());

  // An incoming wire whose originator chose the name, approved and settled: it is then in the
  // history (ORIG:<name>) and in the payments list.
  const wire = await sandbox<{ payment_id: string; payment_timestamp: string }>(
    bank,
    "POST",
    "/sandbox/incoming-wires",
    {
      accountNumber: account,
      amount: 125.5,
      originatorName: ORIGINATOR,
      originatorToBeneficiaryInfo: "-1+1",
    },
  );
  const approved = await invoke(mod.decide, "POST", `/api/incoming-wires/${wire.payment_id}`, {
    as: approver,
    params: { paymentId: wire.payment_id },
    body: { accountNumber: account, action: "approve", paymentTimestamp: wire.payment_timestamp },
  });
  expect(approved.status).toBe(200);
  await sandbox(bank, "POST", "/sandbox/settle", {});
}, 180_000);

afterAll(async () => {
  await world?.close();
});

describe("CSV exports holding text a spreadsheet would run", () => {
  it("history: the file the page saves quotes and neutralises the originator's name", async () => {
    const r = await invoke(mod.history, "GET", `/api/accounts/${account}/history?from=${today}&to=${today}`, {
      as: viewer,
      params: { accountNumber: account },
    });
    expect(r.status).toBe(200);
    const items = (r.json as HistoryResponse).items;
    expect(items.some((i) => i.descriptions.includes(`ORIG:${ORIGINATOR}`))).toBe(true);
    // The page saves exactly this text (tests/e2e/dashboard.test.ts compares the download with it).
    const csv = historyToCsv(items);
    expectSafeCsv(csv, ["Amount", "Balance after"]);
    expect(csv).toContain(`"ORIG:x;'=cmd|' /C calc'!A0"`);
    const [head, ...rows] = parseCsv(csv);
    expect(rows.map((row) => row[head.indexOf("Amount")])).toContain("125.50");
  });

  it("payments: the download quotes and neutralises the originator's name", async () => {
    const csv = await invoke(
      mod.paymentsExport,
      "GET",
      `/api/payments/export?account=${account}&from=${addDays(today, -1)}&to=${today}`,
      { as: viewer },
    );
    expect(csv.status).toBe(200);
    expectSafeCsv(csv.text, ["Amount"]);
    const [head, row] = parseCsv(csv.text);
    expect(row[head.indexOf("Counterparty")]).toBe("x;'=cmd|' /C calc'!A0");
    expect(row[head.indexOf("originator_name")]).toBe("x;'=cmd|' /C calc'!A0");
    expect(row[head.indexOf("Amount")]).toBe("125.50");
  });

  it("audit: the download quotes and neutralises a beneficiary's label and a user's name", async () => {
    const saved = await invoke(mod.beneficiaries, "POST", "/api/beneficiaries", {
      as: preparer,
      body: {
        label: LABEL,
        fields: {
          beneficiary_name: "Acme Supplies Inc",
          beneficiary_account_number: "987654321",
          beneficiary_address1: "1 Main Street",
          receiving_bank_routing_id: "021000021",
        },
      },
    });
    expect(saved.status).toBe(200);
    const renamed = await invoke(mod.adminUser, "PATCH", `/api/admin/users/${viewer.id}`, {
      as: admin,
      params: { id: viewer.id },
      body: { name: NAME },
    });
    expect(renamed.status).toBe(200);
    const csv = await invoke(mod.auditExport, "GET", "/api/admin/audit/export", { as: admin });
    expect(csv.status).toBe(200);
    expectSafeCsv(csv.text);
    expect(csv.text).toContain("@SUM(1+1);'-2+3");
    expect(csv.text).toContain("=cmd|' /C calc'!A0 ＋1");
    const rows = parseCsv(csv.text);
    const detailOf = (action: string) => rows.find((r) => r[2] === action)?.[6] ?? "";
    expect(JSON.parse(detailOf("beneficiary.create")).label).toBe("@SUM(1+1);'-2+3");
    expect(JSON.parse(detailOf("user.update")).name.to).toBe(NAME);
  });
});
