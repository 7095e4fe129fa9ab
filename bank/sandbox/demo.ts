// Demo data for `npm start`: one customer with a DDA and two SEN accounts, 90 days of history
// (one business day holding more than 520 transactions, so the extended-history path shows), and a
// counterparty on the network. Planned as a pure function of the bank's business date, then written
// straight into the ledger with running balances.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { isBusinessDay, rollToBusinessDay } from "../../lib/bank-api/business-days.ts";
import { addDays } from "../../lib/bank-api/dates.ts";
import { TRAN_CODES } from "../../lib/bank-api/history.ts";
import type { SqlRow } from "../../lib/server/sql-row.ts";
import type { Bank } from "../context.ts";
import type { bankSettings } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";
import type { Router } from "../http/router.ts";
import { openAccount } from "../ledger/accounts.ts";
import { createIncomingWire } from "../payments/actions.ts";
import { createCustomer } from "./core.ts";
import { sandboxRoute } from "./guard.ts";

export const DEMO_CUSTOMER = "Northwind Treasury LLC";

interface Entry {
  account: string;
  at: Date;
  date: string;
  cents: number;
  drCr: "D" | "C";
  code: string;
  desc: string[];
  transferId?: string;
  counterparty?: string;
  counterpartyName?: string;
  memo?: string;
}

/** A small deterministic generator, so every fresh demo looks the same. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The demo's four accounts: the customer's DDA and two SEN accounts, and the counterparty's. */
export interface DemoAccounts {
  dda: string;
  senOps: string;
  senReserve: string;
  globex: string;
}

export interface DemoLedger {
  entries: (Entry & { after: number })[];
  balances: Map<string, number>;
  lastDeposit: Map<string, { cents: number; date: string }>;
  /** The first day of history; every account opens on it. */
  start: string;
  /** The settlement-run day: more than 520 SEN movements on the SEN accounts. */
  busyDay: string;
}

/**
 * The demo's busy day for a bank whose business date is `today`: the last business day at least
 * five days back, so that it is always a day with entries, inside the default 30-day history and
 * never today (whose history still grows).
 */
export function demoBusyDay(today: string): string {
  return rollToBusinessDay(addDays(today, -5), "preceding");
}

/** The 90 days of demo history up to `today`, with running balances: a pure function of the date. */
export function planDemoLedger(today: string, accounts: DemoAccounts): DemoLedger {
  const { dda, senOps, senReserve, globex } = accounts;
  const start = addDays(today, -89);
  const rand = rng(20261122);
  const balances = new Map<string, number>([dda, senOps, senReserve, globex].map((a) => [a, 0]));
  const lastDeposit = new Map<string, { cents: number; date: string }>();
  const entries: (Entry & { after: number })[] = [];
  const post = (e: Entry) => {
    const after = (balances.get(e.account) ?? 0) + (e.drCr === "C" ? e.cents : -e.cents);
    balances.set(e.account, after);
    if (e.drCr === "C") lastDeposit.set(e.account, { cents: e.cents, date: e.date });
    entries.push({ ...e, after });
  };
  const pad = (lines: string[]) => [...lines, ...Array(11 - lines.length).fill("")];
  const names: Record<string, string> = {
    [senOps]: "NORTHWIND TREASURY LLC",
    [senReserve]: "NORTHWIND TREASURY LLC",
    [globex]: "GLOBEX SUPPLIES INC",
  };
  const transfer = (from: string, to: string, cents: number, at: Date, date: string, memo: string) => {
    if ((balances.get(from) ?? 0) < cents) return;
    const id = `SEN${randomBytes(6).toString("hex").toUpperCase()}`;
    post({
      account: from,
      at,
      date,
      cents,
      drCr: "D",
      code: TRAN_CODES.SEN_API,
      desc: pad([`SEN to ${to}`, memo]),
      transferId: id,
      counterparty: to,
      counterpartyName: names[to],
      memo,
    });
    post({
      account: to,
      at,
      date,
      cents,
      drCr: "C",
      code: TRAN_CODES.SEN_API,
      desc: pad([`SEN from ${from}`, memo]),
      transferId: id,
      counterparty: from,
      counterpartyName: names[from],
      memo,
    });
  };
  const deposit = (account: string, cents: number, at: Date, date: string, lines: string[]) =>
    post({ account, at, date, cents, drCr: "C", code: TRAN_CODES.DEPOSIT, desc: pad(lines) });
  const debit = (account: string, cents: number, at: Date, date: string, code: string, lines: string[]) => {
    if ((balances.get(account) ?? 0) >= cents)
      post({ account, at, date, cents, drCr: "D", code, desc: pad(lines) });
  };

  const busyDay = demoBusyDay(today);
  const customersPaying = [
    "ACME CORP",
    "INITECH",
    "UMBRELLA LTD",
    "STARK INDUSTRIES",
    "WAYNE ENTERPRISES",
    "HOOLI",
  ];
  const vendors = [
    "PAYROLL ADP",
    "AWS",
    "RENT HARBOR PROP",
    "UTILITIES SEATTLE",
    "INSURANCE MUTUAL",
    "FEDEX",
  ];
  for (let day = 0; day < 90; day++) {
    const date = addDays(start, day);
    const at = (minute: number) =>
      new Date(
        `${date}T${String(13 + (Math.floor(minute / 60) % 10)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}:00Z`,
      );
    if (day === 0) {
      deposit(dda, 250_000_000, at(0), date, ["OPENING DEPOSIT", "INITIAL FUNDING"]);
      deposit(senOps, 80_000_000, at(1), date, ["OPENING DEPOSIT", "INITIAL FUNDING"]);
      deposit(senReserve, 150_000_000, at(2), date, ["OPENING DEPOSIT", "INITIAL FUNDING"]);
      deposit(globex, 50_000_000, at(3), date, ["OPENING DEPOSIT", "INITIAL FUNDING"]);
    }
    if (!isBusinessDay(date)) continue;
    const n = 3 + Math.floor(rand() * 6);
    for (let i = 0; i < n; i++) {
      const cents = Math.round((500 + rand() * 48_000) * 100);
      const who = customersPaying[Math.floor(rand() * customersPaying.length)];
      deposit(dda, cents, at(10 + i * 7), date, [
        `ACH CREDIT ${who}`,
        `INV ${10_000 + Math.floor(rand() * 90_000)}`,
      ]);
    }
    const m = 2 + Math.floor(rand() * 4);
    for (let i = 0; i < m; i++) {
      const cents = Math.round((200 + rand() * 30_000) * 100);
      const v = vendors[Math.floor(rand() * vendors.length)];
      debit(dda, cents, at(70 + i * 5), date, "4120", [`ACH DEBIT ${v}`, `REF ${Math.floor(rand() * 1e8)}`]);
    }
    transfer(
      senReserve,
      senOps,
      Math.round((1_000 + rand() * 20_000) * 100),
      at(120),
      date,
      "LIQUIDITY SWEEP",
    );
    transfer(senOps, globex, Math.round((500 + rand() * 9_000) * 100), at(130), date, `PO ${4000 + day}`);
    if (rand() < 0.5)
      transfer(globex, senOps, Math.round((300 + rand() * 6_000) * 100), at(140), date, "REBATE");
    if (date === busyDay) {
      // A settlement run: hundreds of small SEN movements in one day (more than history's 520).
      for (let i = 0; i < 620; i++) {
        const minute = 150 + Math.floor(i / 3);
        const cents = 1_000 + Math.floor(rand() * 90_000);
        if (i % 2 === 0) transfer(senOps, globex, cents, at(minute), date, `BATCH ${i + 1}`);
        else transfer(globex, senOps, cents, at(minute), date, `BATCH ${i + 1}`);
      }
    }
  }
  return { entries, balances, lastDeposit, start, busyDay };
}

export async function seedDemo(
  bank: Bank,
): Promise<{ created: boolean; subscriptionKey?: string; sandboxKey?: string }> {
  const existing = await bank.db.query<Pick<SqlRow<typeof bankSettings>, "value">>(
    "SELECT value FROM bank_settings WHERE key = 'demo_subscription_key'",
  );
  if (existing.length) return { created: false, subscriptionKey: existing[0].value };

  const { customerId, subscriptionKey } = await createCustomer(bank.db, {
    name: DEMO_CUSTOMER,
    shortName: "NORTHWIND",
    titleLines: ["NORTHWIND TREASURY LLC", "400 HARBOR BLVD", "SEATTLE WA 98101"],
  });
  const partner = await createCustomer(bank.db, { name: "Globex Supplies Inc", shortName: "GLOBEX" });
  const today = bank.clock.businessDate();
  const start = addDays(today, -89);
  const open = (c: number, type: "DDA" | "SEN", shortName: string, titles: string[]) =>
    openAccount(bank.db, { customerId: c, type, titleLines: titles, shortName, openedOn: start });
  const dda = await open(customerId, "DDA", "OPERATING", ["NORTHWIND TREASURY LLC", "OPERATING ACCOUNT"]);
  const senOps = await open(customerId, "SEN", "SEN OPERATIONS", [
    "NORTHWIND TREASURY LLC",
    "SEN OPERATIONS",
  ]);
  const senReserve = await open(customerId, "SEN", "SEN RESERVE", ["NORTHWIND TREASURY LLC", "SEN RESERVE"]);
  const globex = await open(partner.customerId, "SEN", "GLOBEX SEN", ["GLOBEX SUPPLIES INC"]);
  const { entries, balances, lastDeposit, busyDay } = planDemoLedger(today, {
    dda,
    senOps,
    senReserve,
    globex,
  });

  await bank.db.tx(async (q) => {
    for (let i = 0; i < entries.length; i += 400) {
      const chunk = entries.slice(i, i + 400);
      const params: unknown[] = [];
      const values = chunk.map((e) => {
        const b = params.length;
        params.push(
          e.account,
          e.at,
          e.date,
          e.cents,
          e.drCr,
          e.code,
          e.desc,
          e.after,
          e.transferId ?? null,
          e.counterparty ?? null,
          e.counterpartyName ?? null,
          e.memo ?? null,
        );
        return `(${Array.from({ length: 12 }, (_, k) => `$${b + k + 1}`).join(", ")}, false)`;
      });
      await q.query(
        `INSERT INTO ledger_entries (account_number, posted_at, tran_date, amount_cents, dr_cr, tran_code, descriptions,
           available_after_cents, transfer_id, counterparty_account, counterparty_name, sender_memo, memo_post) VALUES ${values.join(", ")}`,
        params,
      );
    }
    for (const [account, cents] of balances) {
      const ld = lastDeposit.get(account);
      await q.query(
        "UPDATE accounts SET available_cents = $2, current_cents = $2, last_deposit_cents = $3, last_deposit_on = $4 WHERE number = $1",
        [account, cents, ld?.cents ?? 0, ld?.date ?? null],
      );
    }
    await q.query("INSERT INTO bank_settings (key, value) VALUES ('demo_subscription_key', $1)", [
      subscriptionKey,
    ]);
    await q.query("INSERT INTO bank_settings (key, value) VALUES ('demo_accounts', $1)", [
      JSON.stringify({ dda, senOps, senReserve, globex } satisfies DemoAccounts),
    ]);
    await q.query("INSERT INTO bank_settings (key, value) VALUES ('demo_busy_day', $1)", [busyDay]);
  });
  // Two incoming wires waiting for a decision, so approvals have something to show.
  await createIncomingWire(bank.db, bank.clock, {
    accountNumber: dda,
    cents: 4_850_000,
    originatorName: "ACME CORP",
    originatorToBeneficiaryInfo: "INVOICE 10442 SETTLEMENT",
    referenceForBeneficiary: "ACME-10442",
  });
  await createIncomingWire(bank.db, bank.clock, {
    accountNumber: dda,
    cents: 1_275_050,
    originatorName: "INITECH LLC",
    originatorToBeneficiaryInfo: "Q4 SERVICES PREPAYMENT",
  });
  return { created: true, subscriptionKey };
}

export function registerSandboxDemoRoutes(router: Router, bank: Bank) {
  // What BANK_DEMO=1 seeded: its accounts and its busy day (more than 520 SEN movements), so a
  // client finds them by asking rather than by recomputing the seeding's calendar.
  sandboxRoute(router, bank, "GET", "/sandbox/demo", z.object({}), async () => {
    const rows = await bank.db.query<Pick<SqlRow<typeof bankSettings>, "key" | "value">>(
      "SELECT key, value FROM bank_settings WHERE key IN ('demo_accounts', 'demo_busy_day')",
    );
    const value = (key: string) => rows.find((r) => r.key === key)?.value;
    const accounts = value("demo_accounts");
    if (!accounts) throw new HttpError(404, "No demo customer: the bank was not started with BANK_DEMO=1");
    return {
      customerName: DEMO_CUSTOMER,
      accounts: JSON.parse(accounts) as DemoAccounts,
      busyDay: value("demo_busy_day") ?? null,
    };
  });
}
