// The accounts page's morning check against the real bank: the change since the previous business
// day's close and money in and out today, per account and in total, in exact cents, from the
// bank's history; a viewer may read it, nobody without a session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { addBusinessDays } from "../../lib/bank-api/business-days.ts";

const previousBusinessDay = (day: string) => addBusinessDays(day, -1);

import type { Role } from "../../lib/auth/permissions.ts";
import type { UserRow } from "../../lib/auth/users.ts";
import { addDays } from "../../lib/bank-api/dates.ts";
import { setBankClient } from "../../lib/bank-client/index.ts";
import { newCustomer, sandbox, startTestBank, type TestBank, type TestCustomer } from "../helpers/bank.ts";
import { invoke, openTestDashboardDb, type TestDashboardDb, testUser } from "../helpers/routes.ts";

process.env.NEXTAUTH_SECRET = "test-nextauth-secret-0123456789abcdef";
process.env.NEXTAUTH_URL = "http://127.0.0.1:3999";

let bank: TestBank;
let dashboard: TestDashboardDb;
let customer: TestCustomer;
const users = {} as Record<Role, UserRow>;
const mod = {
  morning: () => import("../../app/api/accounts/morning/route.ts"),
  accounts: () => import("../../app/api/accounts/route.ts"),
};

beforeAll(async () => {
  // The test holds a token of the customer's key beside the dashboard's.
  bank = await startTestBank({ env: { BANK_TOKEN_INTERVAL_SECONDS: "0" } });
  dashboard = await openTestDashboardDb("morning-check");
  customer = await newCustomer(bank, "Morning Check LLC");
  process.env.BANK_API_URL = bank.url;
  process.env.BANK_SUBSCRIPTION_KEY = customer.key;
  delete process.env.BANK_WEBHOOK_SECRET;
  setBankClient(undefined);
  for (const role of ["viewer", "admin"] as Role[])
    users[role] = await testUser(dashboard.db, role, `${role}@morning.example`, `Morning ${role}`);
}, 180_000);

afterAll(async () => {
  setBankClient(undefined);
  await dashboard?.close();
  await bank?.close();
});

describe("previous business day", () => {
  it("skips the weekend and Fed holidays", () => {
    expect(previousBusinessDay("2026-11-26")).toBe("2026-11-25"); // Thursday → Wednesday
    expect(previousBusinessDay("2026-11-30")).toBe("2026-11-27"); // Monday → Friday
    expect(previousBusinessDay("2026-11-29")).toBe("2026-11-27"); // Sunday → Friday
    expect(previousBusinessDay("2026-12-01")).toBe("2026-11-30"); // Tuesday → Monday
    expect(previousBusinessDay("2026-11-27")).toBe("2026-11-25"); // Friday → Wednesday: Thanksgiving is a Fed holiday
  });
});

describe("GET /api/accounts/morning", () => {
  it("sums the change since the last close and today's money in and out, per account and in total", async () => {
    // Accounts opened today: nothing stood at the last close, so the change is today's balance.
    const a = await customer.account("SEN", 1_000);
    const b = await customer.account("SEN", 50);
    await sandbox(bank, "POST", "/sandbox/deposits", {
      accountNumber: a,
      amount: 10.01,
      description: "MORNING IN",
    });
    const t = await customer.api("POST", "/v2/account/transfersen", {
      body: { AccountNumberFrom: a, AccountNumberTo: b, Amount: 250.25 },
    });
    expect(t.status).toBe(200);

    expect((await invoke(mod.morning, "GET", "/api/accounts/morning")).status).toBe(401);
    const r = await invoke(mod.morning, "GET", "/api/accounts/morning", { as: users.viewer });
    expect(r.status).toBe(200);
    const list = (await invoke(mod.accounts, "GET", "/api/accounts", { as: users.viewer })).json.accounts as {
      accountNumber: string;
      currentCents: number;
    }[];
    const byNumber = new Map(r.json.accounts.map((x: { accountNumber: string }) => [x.accountNumber, x]));
    const ofA = byNumber.get(a) as Record<string, number>;
    const ofB = byNumber.get(b) as Record<string, number>;
    expect(ofA).toMatchObject({ outCents: 25_025, outCount: 1 });
    expect(ofA.inCents).toBe(100_000 + 1_001);
    expect(ofB).toMatchObject({ inCents: 5_000 + 25_025, outCents: 0, outCount: 0 });
    for (const x of list) {
      const m = byNumber.get(x.accountNumber) as Record<string, number>;
      expect(m.changeCents, x.accountNumber).toBe(x.currentCents);
      expect(m.inCents - m.outCents).toBe(m.changeCents);
    }
    const total = (k: string) =>
      r.json.accounts.reduce((s: number, x: Record<string, number>) => s + x[k], 0);
    expect(r.json.totals).toEqual({
      changeCents: total("changeCents"),
      inCents: total("inCents"),
      outCents: total("outCents"),
    });
    expect(r.json.since).toBe(previousBusinessDay(r.json.today));
    expect(r.json.complete).toBe(true);
  });

  it("takes today from the bank's clock: on the bank's Monday the change runs from Friday's close", async () => {
    // The bank's clock moves ahead to its next Monday, whatever day this runs; the dashboard's own
    // clock stays where it is, so a "today" read from it would be another day.
    const before = await sandbox<{ businessDate: string }>(bank, "GET", "/sandbox/clock");
    const weekday = new Date(`${before.businessDate}T12:00:00Z`).getUTCDay();
    const days = (8 - weekday) % 7 || 7;
    const moved = await sandbox<{ businessDate: string }>(bank, "POST", "/sandbox/clock", {
      advanceSeconds: days * 86_400,
    });
    const monday = moved.businessDate;
    expect(new Date(`${monday}T12:00:00Z`).getUTCDay()).toBe(1);
    const a = await customer.account("SEN", 0);
    await sandbox(bank, "POST", "/sandbox/deposits", {
      accountNumber: a,
      amount: 12.34,
      description: "MONDAY IN",
    });

    const r = await invoke(mod.morning, "GET", "/api/accounts/morning", { as: users.viewer });
    expect(r.status).toBe(200);
    expect(r.json.today).toBe(monday);
    expect(r.json.since).toBe(addDays(monday, -3));
    const ofA = r.json.accounts.find((x: { accountNumber: string }) => x.accountNumber === a);
    expect(ofA).toMatchObject({ inCents: 1_234, inCount: 1, changeCents: 1_234 });
  });
});
