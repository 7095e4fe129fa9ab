// The statement downloads against a real bank: BAI2 read by a reader written from the format's
// specification, camt.053 and camt.052 validated against the official ISO 20022 schemas and read
// back by an independent parser, each checked against the bank's own history day by day: SEN in
// and out, wires in and out, a returned wire, a held wire, a day with no entries and a day of
// more than 520 entries, the bank's clock running days ahead of the dashboard's.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { CashManagementEndOfDayReport } from "iso20022.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";

import type { UserRow } from "../../lib/auth/users.ts";
import { addDays } from "../../lib/bank-api/dates.ts";
import type { Transaction } from "../../lib/bank-api/history.ts";
import { dollarsToCents } from "../../lib/bank-api/money.ts";
import { unwrap } from "../../lib/bank-client/errors.ts";
import { type Bai2Account, readBai2 } from "../helpers/bai2-reader.ts";
import { sandbox, wireBody } from "../helpers/bank.ts";
import { cookieFor, invoke, openRouteWorld, type RouteWorld, testUser } from "../helpers/routes.ts";

const routes = {
  tokens: () => import("../../app/api/admin/integration-tokens/route.ts"),
  token: () => import("../../app/api/admin/integration-tokens/[id]/route.ts"),
  history: () => import("../../app/api/accounts/[accountNumber]/history/route.ts"),
  transfers: () => import("../../app/api/transfers/route.ts"),
  wires: () => import("../../app/api/wires/route.ts"),
  users: () => import("../../app/api/admin/users/route.ts"),
  settings: () => import("../../app/api/admin/settings/route.ts"),
  bai2: () => import("../../app/api/statements/bai2/route.ts"),
  camt053: () => import("../../app/api/statements/camt053/route.ts"),
  camt052: () => import("../../app/api/statements/camt052/route.ts"),
};

const XSD_DIR = path.join(path.dirname(new URL(import.meta.url).pathname), "../fixtures/iso20022");
const xsd = (name: string) => ({
  fileName: `${name}.xsd`,
  contents: fs.readFileSync(path.join(XSD_DIR, `${name}.xsd`), "utf8"),
});

async function schemaErrors(xml: string, schema: "camt.053.001.08" | "camt.052.001.08"): Promise<string[]> {
  const r = await validateXML({
    xml: [{ fileName: "statement.xml", contents: xml }],
    schema: [xsd(schema)],
    maxMemoryPages: 16_384,
  });
  return r.errors.map((e) => e.rawMessage);
}

let world: RouteWorld;
let viewer: UserRow;
let admin: UserRow;
let senA: string;
let senB: string;
let dda: string;
let otherCustomersAccount: string;
/** The bank's business days: d0 the first, d3 its today at the end (the dashboard still on d0's wall clock). */
let d0: string;
let d1: string;
let d2: string;
let d3: string;
let senKey: string;
let wireOutId: string;
let wireInId: string;
let returnedId: string;
let heldId: string;

const cents = (n: number) => dollarsToCents(n) as number;

async function advanceOneDay(): Promise<string> {
  const r = await sandbox<{ businessDate: string }>(world.bank, "POST", "/sandbox/clock", {
    advanceSeconds: 86_400,
  });
  return r.businessDate;
}

/** The bank's own history of one account-day, oldest first. */
async function bankDay(account: string, day: string): Promise<Transaction[]> {
  const r = unwrap(
    await world.client!.call("extendedHistory", {
      query: { accountNumber: account, date: day, displayOrder: "A" },
    }),
  );
  return r.ResponseData.flatMap((d) => d.TRANSACTION);
}

async function bankBalance(account: string) {
  const r = unwrap(await world.client!.call("balance", { query: { accountNumber: account } }));
  return { current: cents(r.ResponseData[0].CURRBAL), available: cents(r.ResponseData[0].AVAILBAL) };
}

const signed = (t: Transaction) => (t.DRCRFLAG === "D" ? -1 : 1) * Math.abs(cents(t.TRANAMT));

async function incomingWire(account: string, amount: number, name: string) {
  return sandbox<{ payment_id: string; payment_timestamp: string }>(
    world.bank,
    "POST",
    "/sandbox/incoming-wires",
    {
      accountNumber: account,
      amount,
      originatorName: name,
    },
  );
}

async function actOnWire(
  account: string,
  w: { payment_id: string; payment_timestamp: string },
  action: string,
) {
  unwrap(
    await world.client!.call("paymentAction", {
      query: { account_number: account, payment_id: w.payment_id, action, timestamp: w.payment_timestamp },
    }),
  );
}

async function sendWire(account: string, amount: number): Promise<string> {
  const r = unwrap(
    await world.client!.call("initiatePayment", {
      body: wireBody(account, amount),
      idempotencyKey: randomUUID(),
    }),
  );
  expect(r.payment_id).not.toBe("");
  return r.payment_id;
}

async function sen(from: string, to: string, amount: number, key: string = randomUUID()) {
  const r = unwrap(
    await world.client!.call("transferSen", {
      body: {
        AccountNumberFrom: from,
        AccountNumberTo: to,
        Amount: amount,
        AccountFromDescription2: "INV 77",
      },
      idempotencyKey: key,
    }),
  );
  expect(r.ERROR).toEqual([]);
}

beforeAll(async () => {
  world = await openRouteWorld("statements", {
    customer: "Ledger Close Corp",
    // Wires stay held until the test settles them: days of sandbox clock pass meanwhile.
    bankEnv: { BANK_SETTLE_AFTER_SECONDS: String(30 * 86_400) },
  });
  viewer = await testUser(world.db, "viewer", "viewer@statements.example");
  admin = await testUser(world.db, "admin", "admin@statements.example");
  senA = await world.customer.account("SEN", 10_000);
  senB = await world.customer.account("SEN", 5_000);
  dda = await world.customer.account("DDA", 20_000);
  const other = await sandbox<{ customerId: number }>(world.bank, "POST", "/sandbox/customers", {
    name: "Other Co",
  });
  otherCustomersAccount = (
    await sandbox<{ accountNumber: string }>(world.bank, "POST", "/sandbox/accounts", {
      customerId: other.customerId,
      type: "SEN",
      balance: 1,
    })
  ).accountNumber;
  d0 = world.bank.running.bank.clock.businessDate();

  // d0: SEN out and in, an incoming wire approved, an outgoing wire; both settle.
  senKey = randomUUID();
  await sen(senA, senB, 123.45, senKey);
  await sen(senB, senA, 10);
  const wIn = await incomingWire(dda, 500.25, "Northwind Buyer LLC");
  wireInId = wIn.payment_id;
  await actOnWire(dda, wIn, "approve");
  wireOutId = await sendWire(dda, 250.1);
  await sandbox(world.bank, "POST", "/sandbox/settle", {});

  // d1: nothing at all.
  d1 = await advanceOneDay();
  // d2: more than 520 entries on senA, a wire returned, a wire held (never settled).
  d2 = await advanceOneDay();
  await world.bank.running.bank.db.query(
    `SELECT post_entry($1, 'C', 100 + g, '1100', ARRAY['BULK ' || g, 'LINE2'], $2::timestamptz + make_interval(secs => g), $3, '', '')
     FROM generate_series(1, 600) AS g`,
    [senA, `${d2}T15:00:00Z`, d2],
  );
  await sen(senA, senB, 42);
  const wRet = await incomingWire(dda, 77.7, "Unknown Sender");
  returnedId = wRet.payment_id;
  await actOnWire(dda, wRet, "return");
  heldId = await sendWire(dda, 75);
  // d3, the bank's today: one more SEN, after the range, that balances are computed back through.
  d3 = await advanceOneDay();
  await sen(senA, senB, 1.01);
}, 240_000);

afterAll(async () => {
  await world?.close();
});

const url = (format: string, q: string) => `/api/statements/${format}?${q}`;
const accountsQ = () => [senA, senB, dda].map((a) => `account=${a}`).join("&");

describe("BAI2", () => {
  it("reports every account-day of the range exactly as the bank's history, balances chained to the cent", async () => {
    const r = await invoke(routes.bai2, "GET", url("bai2", `${accountsQ()}&from=${d0}&to=${d2}`), {
      as: viewer,
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-disposition")).toContain(".bai");
    const file = readBai2(r.text);
    expect(file.version).toBe("2");
    // One group per business day, ascending, as-of modifier 2 (prior day).
    expect(file.groups.map((g) => g.asOfDate)).toEqual(
      [d0, d1, d2].map((d) => d.slice(2).replaceAll("-", "")),
    );
    for (const g of file.groups) {
      expect(g.asOfModifier).toBe("2");
      expect(g.currency).toBe("USD");
      expect(g.accounts.map((a) => a.accountNumber)).toEqual([senA, senB, dda]);
    }
    // Every physical line ends with "/" but a 16 record's text (and its continuations).
    const lines = r.text.trimEnd().split("\n");
    let inText = false;
    for (const line of lines) {
      if (line.startsWith("16,")) inText = !line.endsWith("/");
      else if (!line.startsWith("88,")) inText = false;
      if (!inText) expect(line.endsWith("/"), line).toBe(true);
      expect(line.length).toBeLessThanOrEqual(120);
    }
    expect(lines.some((l) => l.startsWith("88,"))).toBe(true);

    for (const account of [senA, senB, dda]) {
      const now = await bankBalance(account);
      const after = (await bankDay(account, d3)).reduce((s, t) => s + signed(t), 0);
      let previousClosing: bigint | null = null;
      for (const [gi, day] of [d0, d1, d2].entries()) {
        const set = file.groups[gi].accounts.find((a) => a.accountNumber === account) as Bai2Account;
        const s = (code: string) => set.summaries.find((x) => x.code === code);
        const history = await bankDay(account, day);
        // The entries are the bank's history of that day, in order, amount and direction.
        expect(set.details).toHaveLength(history.length);
        set.details.forEach((d, k) => {
          const t = history[k];
          expect(d.amount).toBe(BigInt(Math.abs(cents(t.TRANAMT))));
          const code = Number(d.typeCode);
          if (t.DRCRFLAG === "D") expect(code >= 400 && code <= 699, d.typeCode).toBe(true);
          else expect(code >= 100 && code <= 399, d.typeCode).toBe(true);
          if (t.PaymentId) expect(d.bankRef).toBe(t.PaymentId);
          expect(d.customerRef).toBe(t.IDEMPOTENCYKEY);
        });
        const credits = history.filter((t) => t.DRCRFLAG !== "D");
        const debits = history.filter((t) => t.DRCRFLAG === "D");
        const sum = (ts: Transaction[]) => BigInt(ts.reduce((x, t) => x + Math.abs(cents(t.TRANAMT)), 0));
        expect(s("100")).toMatchObject({ amount: sum(credits), itemCount: String(credits.length) });
        expect(s("400")).toMatchObject({ amount: sum(debits), itemCount: String(debits.length) });
        const opening = s("010")?.amount as bigint;
        const closing = s("015")?.amount as bigint;
        expect(opening + sum(credits) - sum(debits)).toBe(closing);
        if (previousClosing !== null) expect(opening).toBe(previousClosing);
        expect(s("040")).toBeDefined();
        expect(s("045")).toBeDefined();
        previousClosing = closing;
      }
      // The range's last closing is the bank's balance now less everything booked since (d3).
      expect(previousClosing).toBe(BigInt(now.current - after));
    }

    const sets = (day: number) => file.groups[day].accounts;
    const codes = (day: number, account: string) =>
      sets(day)
        .find((a) => a.accountNumber === account)
        ?.details.map((d) => d.typeCode);
    // SEN out (506) and in (206) on d0, with the customer's key as its reference.
    expect(codes(0, senA)).toEqual(expect.arrayContaining(["506", "206"]));
    const senOut = sets(0)
      .find((a) => a.accountNumber === senA)
      ?.details.find((d) => d.typeCode === "506");
    expect(senOut?.customerRef).toBe(senKey);
    expect(senOut?.amount).toBe(12345n);
    // Wire in (195) and out (495) with the payment ids as bank references.
    const ddaD0 = sets(0).find((a) => a.accountNumber === dda) as Bai2Account;
    expect(ddaD0.details.find((d) => d.bankRef === wireInId)?.typeCode).toBe("195");
    expect(ddaD0.details.find((d) => d.bankRef === wireOutId)?.typeCode).toBe("495");
    // d1 has no entries: every account reported with zero totals and no details.
    for (const a of sets(1)) {
      expect(a.details).toEqual([]);
      expect(a.summaries.find((x) => x.code === "100")?.itemCount).toBe("0");
    }
    // d2: more than 520 entries on senA; neither the returned nor the held wire is booked.
    expect(sets(2).find((a) => a.accountNumber === senA)?.details.length).toBeGreaterThan(520);
    const ddaD2 = sets(2).find((a) => a.accountNumber === dda) as Bai2Account;
    expect(ddaD2.details.some((d) => d.bankRef === returnedId || d.bankRef === heldId)).toBe(false);
    // The held wire lowers available, not ledger: d2's closing available is below its closing ledger.
    const ddaS = (code: string) => ddaD2.summaries.find((x) => x.code === code)?.amount as bigint;
    expect(ddaS("015") - ddaS("045")).toBe(7500n);
  });

  it("answers 400 naming the field for a bad range, 404 for another customer's account, 401 without a session, and writes nothing", async () => {
    // One session for all the requests, made before the counts are taken.
    const cookie = await cookieFor(viewer);
    const bad = async (q: string) => invoke(routes.bai2, "GET", url("bai2", q), { cookie });
    const fieldOf = (r: Awaited<ReturnType<typeof bad>>) =>
      r.json.error.fields.map((f: { field: string }) => f.field);

    // Every table's row count, the audit log's and the statement subscriptions' and deliveries'
    // among them: a refused download must leave no trace a later reader could mistake for one sent.
    const tablesBefore = await rowCounts();
    expect(Object.keys(tablesBefore)).toEqual(
      expect.arrayContaining(["audit_log", "statement_subscriptions", "statement_deliveries"]),
    );

    const after = await bad(`account=${senA}&from=${d2}&to=${d0}`);
    expect(after.status).toBe(400);
    expect(fieldOf(after)).toEqual(["from"]);
    const long = await bad(`account=${senA}&from=${addDays(d0, -93)}&to=${d0}`);
    expect(long.status).toBe(400);
    expect(fieldOf(long)).toEqual(["from"]);
    expect(long.json.error.fields[0].message).toContain("93");
    const notADay = await bad(`account=${senA}&from=${d0}&to=2026-02-30`);
    expect(notADay.status).toBe(400);
    expect(fieldOf(notADay)).toEqual(["to"]);
    const noAccount = await bad(`from=${d0}&to=${d0}`);
    expect(noAccount.status).toBe(400);
    expect(fieldOf(noAccount)).toEqual(["account"]);
    const letters = await bad(`account=abc&from=${d0}&to=${d0}`);
    expect(letters.status).toBe(400);
    expect(fieldOf(letters)).toEqual(["account"]);

    const foreign = await bad(`account=${senA}&account=${otherCustomersAccount}&from=${d0}&to=${d0}`);
    expect(foreign.status).toBe(404);
    for (const format of ["bai2", "camt053", "camt052"] as const) {
      const anonymous = await invoke(
        routes[format],
        "GET",
        url(format, `account=${senA}&from=${d0}&to=${d0}`),
      );
      expect(anonymous.status).toBe(401);
    }
    expect(await rowCounts()).toEqual(tablesBefore);
  });
});

/** Rows in each of the dashboard's tables, by name. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await world.db.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await world.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`);
    counts[name] = row.n;
  }
  return counts;
}

describe("camt.053", () => {
  it("is valid against the official schema and reads back with the bank's counts and balances", async () => {
    const r = await invoke(routes.camt053, "GET", url("camt053", `${accountsQ()}&from=${d0}&to=${d2}`), {
      as: viewer,
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("xml");
    expect(await schemaErrors(r.text, "camt.053.001.08")).toEqual([]);
    // Default namespace, no prefixes.
    expect(r.text).toContain('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">');
    expect(r.text).not.toMatch(/<\w+:/);

    const report = CashManagementEndOfDayReport.fromXML(r.text);
    const statements = report.statements;
    // One Stmt per account per business day, days ascending.
    expect(statements).toHaveLength(9);
    const raw = new XMLParser({
      ignoreAttributes: false,
      parseTagValue: false,
      isArray: (n) => ["Stmt", "Ntry", "Bal"].includes(n),
    }).parse(r.text);
    const rawStmts = raw.Document.BkToCstmrStmt.Stmt;
    let k = 0;
    for (const day of [d0, d1, d2]) {
      for (const account of [senA, senB, dda]) {
        const st = statements[k];
        const rs = rawStmts[k];
        k++;
        expect(rs.Acct.Id.Othr.Id).toBe(account);
        expect(rs.Acct.Svcr.FinInstnId.Othr.Id).toBe("091999997");
        expect(st.agent).toEqual({ routingNumber: 91999997 });
        const history = await bankDay(account, day);
        expect(st.entries).toHaveLength(history.length);
        expect(Number(st.numOfEntries)).toBe(history.length);
        const credits = history.filter((t) => t.DRCRFLAG !== "D");
        // The parser reads the credit and debit totals though its type leaves them out.
        const totals = st as unknown as { numOfCredits: number; numOfDebits: number };
        expect(Number(totals.numOfCredits)).toBe(credits.length);
        expect(Number(totals.numOfDebits)).toBe(history.length - credits.length);
        const bal = (code: string) => {
          const b = st.balances.find((x) => x.type === code);
          if (!b) throw new Error(`no ${code}`);
          expect(String(b.date.toISOString()).slice(0, 10)).toBe(day);
          return Math.round(b.amount) * (b.creditDebitIndicator === "debit" ? -1 : 1);
        };
        const net = history.reduce((s, t) => s + signed(t), 0);
        expect(bal("OPBD") + net).toBe(bal("CLBD"));
        expect(bal("OPAV")).toEqual(expect.any(Number));
        expect(bal("CLAV")).toEqual(expect.any(Number));
        st.entries.forEach((e, i) => {
          const t = history[i];
          expect(Math.round(e.amount)).toBe(Math.abs(cents(t.TRANAMT)));
          expect(e.creditDebitIndicator).toBe(t.DRCRFLAG === "D" ? "debit" : "credit");
          expect(e.bookingDate.toISOString().slice(0, 10)).toBe(day);
          expect(e.bankTransactionCode.proprietaryCode).toBe(t.TRANCD);
          if (t.PaymentId) expect(e.accountServicerReferenceId).toBe(t.PaymentId);
        });
        for (const n of rs.Ntry ?? []) {
          expect(n.Sts.Cd).toBe("BOOK");
          expect(n.Amt["@_Ccy"]).toBe("USD");
        }
      }
    }
    // The SEN out names its counterparty and carries the customer's key (without hyphens).
    const senOut = rawStmts[0].Ntry.find(
      (n: { CdtDbtInd: string; BkTxCd: { Prtry: { Cd: string } } }) =>
        n.CdtDbtInd === "DBIT" && n.BkTxCd.Prtry.Cd === "9084",
    );
    expect(senOut.NtryDtls.TxDtls.Refs.EndToEndId).toBe(senKey.replaceAll("-", ""));
    expect(senOut.NtryDtls.TxDtls.RltdPties.CdtrAcct.Id.Othr.Id).toBe(senB);
  });
});

describe("camt.052", () => {
  it("reports today so far with the held wire pending, valid against the official schema, read afresh each time", async () => {
    const first = await invoke(routes.camt052, "GET", url("camt052", accountsQ()), { as: viewer });
    expect(first.status).toBe(200);
    expect(await schemaErrors(first.text, "camt.052.001.08")).toEqual([]);
    const parse = (xml: string) =>
      new XMLParser({
        ignoreAttributes: false,
        parseTagValue: false,
        isArray: (n) => ["Rpt", "Ntry", "Bal"].includes(n),
      }).parse(xml).Document.BkToCstmrAcctRpt.Rpt;
    const rpts = parse(first.text);
    expect(rpts.map((r: { Acct: { Id: { Othr: { Id: string } } } }) => r.Acct.Id.Othr.Id)).toEqual([
      senA,
      senB,
      dda,
    ]);
    for (const rpt of rpts) {
      const account = rpt.Acct.Id.Othr.Id;
      const history = await bankDay(account, d3);
      const booked = (rpt.Ntry ?? []).filter((n: { Sts: { Cd: string } }) => n.Sts.Cd === "BOOK");
      expect(booked).toHaveLength(history.length);
      const bal = (code: string) => {
        const b = rpt.Bal.find((x: { Tp: { CdOrPrtry: { Cd: string } } }) => x.Tp.CdOrPrtry.Cd === code);
        expect(b.Dt.Dt).toBe(d3);
        return cents(Number(b.Amt["#text"])) * (b.CdtDbtInd === "DBIT" ? -1 : 1);
      };
      const now = await bankBalance(account);
      expect(bal("ITBD")).toBe(now.current);
      expect(bal("ITAV")).toBe(now.available);
      expect(bal("OPBD") + history.reduce((s, t) => s + signed(t), 0)).toBe(bal("ITBD"));
    }
    const pending = (rpts[2].Ntry ?? []).filter((n: { Sts: { Cd: string } }) => n.Sts.Cd === "PDNG");
    expect(pending.map((n: { AcctSvcrRef: string }) => n.AcctSvcrRef)).toEqual([heldId]);
    expect(pending[0].Amt["#text"]).toBe("75.00");

    // A transfer now is in the next report: nothing is cached between two requests.
    await sen(senB, senA, 2.02);
    const second = await invoke(routes.camt052, "GET", url("camt052", accountsQ()), { as: viewer });
    const again = parse(second.text);
    expect((again[0].Ntry ?? []).length).toBe((rpts[0].Ntry ?? []).length + 1);
  });
});

describe("integration tokens", () => {
  it("read statements and history of their accounts alone, never money, users or settings; shown once, stored hashed, revocable, audited", async () => {
    const made = await invoke(routes.tokens, "POST", "/api/admin/integration-tokens", {
      as: admin,
      body: { name: "NetSuite", accounts: [senA, dda] },
    });
    expect(made.status).toBe(201);
    const token: string = made.json.token;
    expect(token).toMatch(/^itk_[A-Za-z0-9_-]{40,}$/);
    // Only a hash is kept; the list never shows the value.
    const stored = await world.db.query<Record<string, unknown>>("SELECT * FROM integration_tokens");
    expect(JSON.stringify(stored)).not.toContain(token.slice(4));
    const listed = await invoke(routes.tokens, "GET", "/api/admin/integration-tokens", { as: admin });
    expect(JSON.stringify(listed.json)).not.toContain(token.slice(4));
    expect(listed.json.tokens[0]).toMatchObject({
      name: "NetSuite",
      accounts: [senA, dda],
      lastUsedAt: null,
    });
    // A viewer makes none; another customer's account is refused.
    expect(
      (
        await invoke(routes.tokens, "POST", "/api/admin/integration-tokens", {
          as: viewer,
          body: { name: "x", accounts: [senA] },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await invoke(routes.tokens, "POST", "/api/admin/integration-tokens", {
          as: admin,
          body: { name: "x", accounts: [otherCustomersAccount] },
        })
      ).status,
    ).toBe(404);

    const bearer = { authorization: `Bearer ${token}`, "x-forwarded-for": "203.0.113.9" };
    const bai2 = await invoke(
      routes.bai2,
      "GET",
      url("bai2", `account=${senA}&account=${dda}&from=${d0}&to=${d2}`),
      {
        headers: bearer,
      },
    );
    expect(bai2.status).toBe(200);
    expect(readBai2(bai2.text).groups).toHaveLength(3);
    const camt = await invoke(routes.camt053, "GET", url("camt053", `account=${dda}&from=${d0}&to=${d0}`), {
      headers: bearer,
    });
    expect(camt.status).toBe(200);
    const hist = await invoke(routes.history, "GET", `/api/accounts/${senA}/history?from=${d0}&to=${d0}`, {
      headers: bearer,
      params: { accountNumber: senA },
    });
    expect(hist.status).toBe(200);
    expect(hist.json.items.length).toBeGreaterThan(0);
    // Accounts it does not list are not found.
    expect(
      (
        await invoke(routes.bai2, "GET", url("bai2", `account=${senB}&from=${d0}&to=${d0}`), {
          headers: bearer,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await invoke(routes.history, "GET", `/api/accounts/${senB}/history`, {
          headers: bearer,
          params: { accountNumber: senB },
        })
      ).status,
    ).toBe(404);
    // Every other route ignores it: no money moves, no users or settings are read.
    const transfer = await invoke(routes.transfers, "POST", "/api/transfers", {
      headers: bearer,
      body: { fromAccount: senA, toAccount: senB, amount: "1.00", idempotencyKey: randomUUID() },
    });
    expect(transfer.status).toBe(401);
    expect((await invoke(routes.wires, "POST", "/api/wires", { headers: bearer, body: {} })).status).toBe(
      401,
    );
    expect((await invoke(routes.users, "GET", "/api/admin/users", { headers: bearer })).status).toBe(401);
    expect((await invoke(routes.settings, "GET", "/api/admin/settings", { headers: bearer })).status).toBe(
      401,
    );
    expect(
      (await invoke(routes.tokens, "GET", "/api/admin/integration-tokens", { headers: bearer })).status,
    ).toBe(401);

    // Its last use and from where.
    const used = await invoke(routes.tokens, "GET", "/api/admin/integration-tokens", { as: admin });
    expect(used.json.tokens[0].lastUsedAt).not.toBeNull();
    expect(used.json.tokens[0].lastUsedIp).toEqual(expect.any(String));

    // A wrong token, or none after "Bearer", is a 401.
    expect(
      (
        await invoke(routes.bai2, "GET", url("bai2", `account=${senA}&from=${d0}&to=${d0}`), {
          headers: { authorization: `Bearer ${token}x` },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await invoke(routes.bai2, "GET", url("bai2", `account=${senA}&from=${d0}&to=${d0}`), {
          headers: { authorization: "Bearer" },
        })
      ).status,
    ).toBe(401);

    const revoked = await invoke(
      routes.token,
      "DELETE",
      `/api/admin/integration-tokens/${made.json.record.id}`,
      {
        as: admin,
        params: { id: made.json.record.id },
      },
    );
    expect(revoked.status).toBe(200);
    expect(revoked.json.record.revokedAt).not.toBeNull();
    expect(
      (
        await invoke(routes.bai2, "GET", url("bai2", `account=${senA}&from=${d0}&to=${d0}`), {
          headers: bearer,
        })
      ).status,
    ).toBe(401);
    const audit = await world.db.query<{ action: string; target: string; actor_email: string }>(
      "SELECT action, target, actor_email FROM audit_log WHERE action LIKE 'integration_token.%' ORDER BY id",
    );
    expect(audit.map((a) => a.action)).toEqual(["integration_token.create", "integration_token.revoke"]);
    expect(audit.every((a) => a.target === made.json.record.id && a.actor_email === admin.email)).toBe(true);
  });
});

/** How many times the bank answered `extendedhistory` so far (its own metrics). */
async function extendedHistoryCalls(): Promise<number> {
  const text = await (await fetch(`${world.bank.url}/metrics`)).text();
  let n = 0;
  for (const line of text.split("\n"))
    if (line.startsWith("bank_http_requests_total{") && line.includes("extendedhistory"))
      n += Number(line.split(" ").at(-1));
  return n;
}

describe("reading the bank", () => {
  it("reads each account-day once, however many entries the range holds, and chains it to the cent", async () => {
    const bulk = await world.customer.account("SEN", 1_000);
    // 1,500 entries on d0 and on d2: more than the statement keeps in memory (the rest waits on disk).
    for (const day of [d0, d2])
      await world.bank.running.bank.db.query(
        `SELECT post_entry($1, 'C', 1 + g % 7, '1100', ARRAY['BULK ' || g, 'LINE2'], $2::timestamptz + make_interval(secs => g), $3, '', '')
         FROM generate_series(1, 1500) AS g`,
        [bulk, `${day}T14:00:00Z`, day],
      );
    const before = await extendedHistoryCalls();
    const spilled = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith("statement-")).length;
    const spilledBefore = spilled();
    const r = await invoke(routes.bai2, "GET", url("bai2", `account=${bulk}&from=${d0}&to=${d2}`), {
      as: viewer,
    });
    expect(r.status).toBe(200);
    // What waited on disk is gone once the file is written.
    expect(spilled()).toBe(spilledBefore);
    const file = readBai2(r.text);
    // d0 through the bank's today (d3), each day once.
    expect((await extendedHistoryCalls()) - before).toBe(4);
    const now = await bankBalance(bulk);
    const after = (await bankDay(bulk, d3)).reduce((s, t) => s + signed(t), 0);
    let closing: bigint | null = null;
    for (const [gi, day] of [d0, d1, d2].entries()) {
      const set = file.groups[gi].accounts[0];
      const history = await bankDay(bulk, day);
      expect(set.details.map((d) => d.amount)).toEqual(
        history.map((t) => BigInt(Math.abs(cents(t.TRANAMT)))),
      );
      const s = (code: string) => set.summaries.find((x) => x.code === code)?.amount as bigint;
      if (closing !== null) expect(s("010")).toBe(closing);
      expect(s("010") + BigInt(history.reduce((x, t) => x + signed(t), 0))).toBe(s("015"));
      closing = s("015");
    }
    expect(closing).toBe(BigInt(now.current - after));
  });
});

describe("the bank's today", () => {
  it("is the bank's clock, not the newest booking nor the dashboard's: a day ahead with nothing booked yet is reported", async () => {
    // To 20 s before the bank's midnight, the bank's access token taken then, and past midnight:
    // the new day has no booking yet and the token was issued on the day before.
    const clock = world.bank.running.bank.clock;
    const start = clock.now().getTime();
    let lo = 0;
    let hi = 86_400;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (clock.businessDate(new Date(start + mid * 1000)) === clock.businessDate(new Date(start))) lo = mid;
      else hi = mid;
    }
    await sandbox(world.bank, "POST", "/sandbox/clock", { advanceSeconds: Math.max(hi - 20, 1) });
    await world.client!.tokens.getToken();
    await bankBalance(senA);
    const r0 = await sandbox<{ businessDate: string }>(world.bank, "POST", "/sandbox/clock", {
      advanceSeconds: 40,
    });
    const d4 = r0.businessDate;
    expect(d4 > d3).toBe(true);
    const r = await invoke(routes.camt052, "GET", url("camt052", `account=${senA}`), { as: viewer });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-disposition")).toContain(d4);
    const rpt = new XMLParser({
      ignoreAttributes: false,
      parseTagValue: false,
      isArray: (n) => ["Rpt", "Ntry", "Bal"].includes(n),
    }).parse(r.text).Document.BkToCstmrAcctRpt.Rpt[0];
    const now = await bankBalance(senA);
    for (const b of rpt.Bal) expect(b.Dt.Dt).toBe(d4);
    expect(rpt.Ntry ?? []).toEqual([]);
    const opening = rpt.Bal.find((x: { Tp: { CdOrPrtry: { Cd: string } } }) => x.Tp.CdOrPrtry.Cd === "OPBD");
    expect(cents(Number(opening.Amt["#text"]))).toBe(now.current);

    // A range through the bank's today ends on it: d3's closing is d4's opening, nothing after.
    const bai2 = await invoke(routes.bai2, "GET", url("bai2", `account=${senA}&from=${d3}&to=${d4}`), {
      as: viewer,
    });
    expect(bai2.status).toBe(200);
    const file = readBai2(bai2.text);
    expect(file.groups.map((g) => g.asOfDate)).toEqual([d3, d4].map((d) => d.slice(2).replaceAll("-", "")));
    const closing = file.groups[1].accounts[0].summaries.find((x) => x.code === "015")?.amount;
    expect(closing).toBe(BigInt(now.current));
  });
});
