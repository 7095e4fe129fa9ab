// What the PostgreSQL statement-subscription files stand on: a bank on PostgreSQL with a customer
// holding a SEN and a DDA account, a dashboard database shared by instances that each open their
// own pool and bank client, and its administrator; subscriptions made in a row, and the sandbox
// mail box read per recipient. Started before the file's tests, stopped after them.
import { afterAll, beforeAll } from "vitest";
import type { UserRow } from "../../lib/auth/users.ts";
import type { BankClient } from "../../lib/bank-client/index.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { createSubscription } from "../../lib/statements/subscriptions.ts";
import { call, sandboxCustomer, startTestBank, type TestBank } from "./bank.ts";
import { dashboardInstance, openPgTestDashboardDb, type TestDashboardDb, testUser } from "./routes.ts";

export interface Instance {
  db: DashboardDb;
  client: BankClient;
}

/** A message of the bank's sandbox mail box, with its attachments. */
export interface SandboxMessage {
  subject: string;
  attachments: { contentBase64: string }[];
}

export interface StatementFleet {
  bank: TestBank;
  dashboard: TestDashboardDb & { url: string };
  admin: UserRow;
  key: string;
  accounts: string[];
  /** Two dashboard instances on the shared database, each with its own pool and bank client. */
  twoInstances(): Promise<[Instance, Instance]>;
  /** `count` subscriptions by the administrator, every other one of both accounts, to `<letter><i>@<domain>`. */
  subscribe(db: DashboardDb, count: number, name: string, letter: string): Promise<{ id: string }[]>;
  /** What the sandbox mail box holds for one recipient. */
  mailTo(address: string): Promise<SandboxMessage[]>;
}

export function statementFleet(company: string, domain: string): StatementFleet {
  // Filled by the file's beforeAll; the functions read it when the tests call them.
  const fleet = {} as StatementFleet;
  beforeAll(async () => {
    fleet.bank = await startTestBank({ postgres: true, env: { BANK_SANDBOX_SMTP_PORT: "0" } });
    const c = await sandboxCustomer(fleet.bank, company);
    fleet.key = c.subscriptionKey;
    fleet.accounts = [await c.account("SEN", 5_000), await c.account("DDA", 7_000)];
    fleet.dashboard = await openPgTestDashboardDb();
    fleet.admin = await testUser(fleet.dashboard.db, "admin", `controller@${domain}`, "Controller");
  }, 300_000);
  afterAll(async () => {
    await fleet.dashboard?.close();
    await fleet.bank?.close();
  });
  const instance = () => dashboardInstance(fleet.dashboard.url, fleet.bank.url, fleet.key);
  fleet.twoInstances = async () => [await instance(), await instance()];
  fleet.subscribe = async (db, count, name, letter) => {
    const actor = { id: fleet.admin.id, email: fleet.admin.email };
    const today = fleet.bank.running.bank.clock.businessDate();
    const subs = [];
    for (let i = 0; i < count; i++)
      subs.push(
        await createSubscription(db, actor, {
          name: `${name} ${i}`,
          accounts: i % 2 ? fleet.accounts : [fleet.accounts[0]],
          recipients: [`${letter}${i}@${domain}`],
          bankToday: today,
        }),
      );
    return subs;
  };
  fleet.mailTo = async (address) =>
    (
      await call<SandboxMessage[]>(fleet.bank.url, "GET", "/sandbox/mail", {
        query: { to: address },
        headers: { "X-Sandbox-Key": fleet.bank.sandboxKey },
      })
    ).json;
  return fleet;
}
