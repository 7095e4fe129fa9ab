// What the draft races on PostgreSQL stand on: the bank and the dashboard database both on the
// real server (PGlite's one connection would serialise the race), one customer's funded account,
// a preparer and some approvers, and the bank's own view of the wires and the balance.
import type { UserRow } from "../../lib/auth/users.ts";
import { dollarsToCents } from "../../lib/bank-api/money.ts";
import { setBankClient } from "../../lib/bank-client/index.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { newCustomer, startTestBank, type TestBank, type TestCustomer } from "./bank.ts";
import { openPgTestDashboardDb, testUser } from "./routes.ts";

export interface BankWire {
  payment_id: string;
  payment_status: string;
  amount: number;
  beneficiary_id: string;
}

export interface PgDraftWorld {
  bank: TestBank;
  db: DashboardDb;
  /** The dashboard database's URL, for a second instance's own pool. */
  dbUrl: string;
  customer: TestCustomer;
  account: string;
  preparer: UserRow;
  approvers: UserRow[];
  /** The account's wires to a beneficiary in the last two days, as the bank lists them. */
  wiresTo(beneficiary: string): Promise<BankWire[]>;
  /** The account's available balance and holds in cents, as the bank reports them. */
  balance(): Promise<{ available: number; holds: number }>;
  close(): Promise<void>;
}

/** `tag` names the users' domain; the account starts with `startDollars` (100,000 by default). */
export async function openPgDraftWorld(
  tag: string,
  o: { approvers: number; startDollars?: number },
): Promise<PgDraftWorld> {
  const bank = await startTestBank({ postgres: true, env: { BANK_TOKEN_INTERVAL_SECONDS: "0" } });
  const dashboard = await openPgTestDashboardDb();
  const { db } = dashboard;
  const customer = await newCustomer(bank);
  const account = await customer.account("DDA", o.startDollars ?? 100_000);
  process.env.BANK_API_URL = bank.url;
  process.env.BANK_SUBSCRIPTION_KEY = customer.key;
  setBankClient(undefined);
  const preparer = await testUser(db, "preparer", `prep@${tag}.example`, "Prep");
  const approvers: UserRow[] = [];
  for (let i = 0; i < o.approvers; i++)
    approvers.push(await testUser(db, "approver", `appr${i}@${tag}.example`, `Appr ${i}`));
  return {
    bank,
    db,
    dbUrl: dashboard.url,
    customer,
    account,
    preparer,
    approvers,
    async wiresTo(beneficiary) {
      const begin = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
      const listed = await customer.api("GET", "/v2/payment", {
        query: { account_number: account, begin_date: begin, page_size: 1000 },
      });
      return (listed.json as BankWire[]).filter((p) => p.beneficiary_id === beneficiary);
    },
    async balance() {
      const r = await customer.api("GET", "/v2/account/balance", { query: { accountNumber: account } });
      const b = r.json.ResponseData[0];
      return { available: Number(dollarsToCents(b.AVAILBAL)), holds: Number(dollarsToCents(b.TOTALHOLDS)) };
    },
    async close() {
      setBankClient(undefined);
      await dashboard.close();
      await bank.close();
    },
  };
}
