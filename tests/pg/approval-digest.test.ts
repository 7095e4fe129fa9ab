// The approval digest with two dashboard instances on one PostgreSQL database (two pools, as two
// processes would hold) and a real bank: both look at the same moment, round after round, and
// each person who may act gets one digest naming each overdue item once; a later look names
// nothing again; a new item that waits long enough gets a digest of its own.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { UserRow } from "../../lib/auth/users.ts";
import { getBankClient, setBankClient } from "../../lib/bank-client/index.ts";
import { type DashboardDb, openDashboardDb, setDashboardDb } from "../../lib/db/client.ts";
import { runApprovalDigest } from "../../lib/inbox/digest.ts";
import { newCustomer, sandbox, startTestBank, type TestBank } from "../helpers/bank.ts";
import { createTestDatabase, PG_URL } from "../helpers/databases.ts";
import { invoke, testUser } from "../helpers/routes.ts";

describe.skipIf(!PG_URL)("the approval digest from two instances", () => {
  let bank: TestBank;
  let one: DashboardDb;
  let two: DashboardDb;
  let drop: () => Promise<void>;
  let account: string;
  let preparer: UserRow;
  let approvers: UserRow[];

  beforeAll(async () => {
    process.env.NEXTAUTH_SECRET = "test-nextauth-secret-0123456789abcdef";
    process.env.NEXTAUTH_URL = "http://127.0.0.1:3999";
    bank = await startTestBank({ postgres: true, env: { BANK_TOKEN_INTERVAL_SECONDS: "0" } });
    const d = await createTestDatabase(PG_URL as string);
    drop = d.drop;
    one = await openDashboardDb({ url: d.url, poolSize: 4 });
    two = await openDashboardDb({ url: d.url, poolSize: 4 });
    setDashboardDb(one);
    const customer = await newCustomer(bank);
    account = await customer.account("DDA", 100_000);
    process.env.BANK_API_URL = bank.url;
    process.env.BANK_SUBSCRIPTION_KEY = customer.key;
    setBankClient(undefined);
    preparer = await testUser(one, "preparer", "prep@digest.example", "Prep");
    approvers = [
      await testUser(one, "approver", "appr1@digest.example", "Appr One"),
      await testUser(one, "approver", "appr2@digest.example", "Appr Two"),
    ];
  });

  afterAll(async () => {
    setBankClient(undefined);
    setDashboardDb(undefined);
    await one?.close();
    await two?.close();
    await drop?.();
    await bank?.close();
  });

  const mailTo = async (email: string) =>
    one.query<{ subject: string; text: string }>(
      `SELECT subject, text FROM mail_outbox WHERE "to" = $1 AND kind = 'approval_digest' ORDER BY created_at`,
      [email],
    );

  async function wireDraft(payee: string): Promise<string> {
    const made = await invoke(() => import("../../app/api/wires/route.ts"), "POST", "/api/wires", {
      as: preparer,
      body: {
        idempotencyKey: randomUUID(),
        originator_account_number: account,
        amount: "125.00",
        beneficiary_name: payee,
        beneficiary_account_number: "4000123",
        beneficiary_address1: "2 Side Street",
        receiving_bank_routing_id: "021000021",
      },
    });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    return made.json.draft.id as string;
  }

  /** Both instances look at once, as their timers would. */
  const lookTogether = (now: Date) =>
    Promise.all(
      [one, two].map((db) => runApprovalDigest(db, getBankClient, { now, timeZone: "America/New_York" })),
    );

  it("sends one digest per person for the same items, however many instances look at once", async () => {
    await wireDraft("DIGEST PAYEE ONE");
    await sandbox(bank, "POST", "/sandbox/incoming-wires", {
      accountNumber: account,
      amount: 990,
      originatorName: "DIGEST ORIGINATOR",
    });
    // Not waited long enough (the default is 60 minutes): nothing.
    const early = await lookTogether(new Date());
    expect(early.flatMap((o) => o.mails)).toEqual([]);

    const later = new Date(Date.now() + 2 * 3_600_000);
    for (let round = 0; round < 5; round++) await lookTogether(later);
    const list = await (await getBankClient()).call("accountList");
    const name = list.ok
      ? list.data.ResponseData.flatMap((d) => d.CUSTACCT).find((x) => x.ACTNBR === account)?.SHORTNAME
      : undefined;
    expect(name).toBeTruthy();
    for (const a of approvers) {
      const mails = await mailTo(a.email);
      expect(mails, a.email).toHaveLength(1);
      expect(mails[0].subject).toBe("2 items have waited over 60 min for your approval");
      expect(mails[0].text).toContain("Draft to release: wire to DIGEST PAYEE ONE, $125.00");
      // Each account by its name beside the masked number, never the number alone.
      expect(mails[0].text).toContain(`$125.00, from ${name} (••••${account.slice(-4)});`);
      expect(mails[0].text).toContain(`$990.00, to ${name} (••••${account.slice(-4)});`);
      expect(mails[0].text).toContain("Incoming wire to decide: from DIGEST ORIGINATOR, $990.00");
    }
    // The preparer may act on neither.
    expect(await mailTo(preparer.email)).toEqual([]);
    const [{ n }] = await one.query<{ n: string }>("SELECT count(*) AS n FROM approval_digest_items");
    expect(Number(n)).toBe(2);
  });

  it("names a new overdue item in a digest of its own, and the old ones never again", async () => {
    await wireDraft("DIGEST PAYEE TWO");
    const later = new Date(Date.now() + 2 * 3_600_000);
    const outcomes = await lookTogether(later);
    // One instance decided; the other did nothing (it was locked out, or found it already named).
    expect(outcomes.reduce((s, o) => s + o.mails.length, 0)).toBe(approvers.length);
    for (const a of approvers) {
      const mails = await mailTo(a.email);
      expect(mails).toHaveLength(2);
      expect(mails[1].subject).toBe("1 item has waited over 60 min for your approval");
      expect(mails[1].text).toContain("DIGEST PAYEE TWO");
      expect(mails[1].text).not.toContain("DIGEST PAYEE ONE");
    }
    await lookTogether(later);
    for (const a of approvers) expect(await mailTo(a.email)).toHaveLength(2);
  });

  it("measures an incoming wire's wait on the bank's clock, which may run days ahead of this machine's", async () => {
    // A sandbox bank a day ahead: the wire is stamped with the bank's time, not this machine's.
    await sandbox(bank, "POST", "/sandbox/clock", { advanceSeconds: 86_400 });
    await sandbox(bank, "POST", "/sandbox/incoming-wires", {
      accountNumber: account,
      amount: 321,
      originatorName: "DIGEST BANK CLOCK",
    });
    const look = () =>
      Promise.all(
        [one, two].map((db) => runApprovalDigest(db, getBankClient, { timeZone: "America/New_York" })),
      );
    // Just received, by the bank's clock: nothing yet.
    expect((await look()).flatMap((o) => o.mails)).toEqual([]);
    // Two hours later at the bank (this machine's clock has not moved): it has waited long enough.
    await sandbox(bank, "POST", "/sandbox/clock", { advanceSeconds: 2 * 3_600 });
    await look();
    for (const a of approvers) {
      const mails = await mailTo(a.email);
      expect(mails).toHaveLength(3);
      expect(mails[2].text).toContain("Incoming wire to decide: from DIGEST BANK CLOCK, $321.00");
    }
  });
});
