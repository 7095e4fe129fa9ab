// SEN transfers racing the daily totals, on a real PostgreSQL server from two dashboard instances
// (two pools on one database): each small transfer is sent alone only while what went before it
// today leaves room under the total, so however many land at once, exactly those that fit go
// straight out and the rest become drafts for an approver.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { policySetNow, writePolicySet } from "../../lib/approvals/facts.ts";
import type { UserRow } from "../../lib/auth/users.ts";
import { getBankClient } from "../../lib/bank-client/index.ts";
import { SenTransferRequest } from "../../lib/dashboard-api/transfers.ts";
import { type DashboardDb, openDashboardDb } from "../../lib/db/client.ts";
import { sendSenTransfer } from "../../lib/payments/sen.ts";
import { PG_URL } from "../helpers/databases.ts";
import { openPgDraftWorld, type PgDraftWorld } from "../helpers/pg-drafts.ts";
import { testUser } from "../helpers/routes.ts";

describe.skipIf(!PG_URL)("SEN daily totals under concurrency", () => {
  let world: PgDraftWorld;
  let instances: DashboardDb[];
  let from: string;
  let to: string;

  beforeAll(async () => {
    world = await openPgDraftWorld("sen-total", { approvers: 0 });
    from = await world.customer.account("SEN", 5_000_000);
    to = await world.customer.account("SEN", 10);
    instances = [world.db, await openDashboardDb({ url: world.dbUrl, poolSize: 8 })];
  }, 180_000);

  afterAll(async () => {
    await instances?.[1]?.close();
    await world?.close();
  });

  /** Sends `amount` dollars as `who`, on the instance `n` (alternating, as a load balancer would). */
  const send = async (who: UserRow, amount: string, n: number, account = from) =>
    sendSenTransfer(
      instances[n % instances.length],
      await getBankClient(),
      { id: who.id, email: who.email },
      SenTransferRequest.parse({
        idempotencyKey: randomUUID(),
        AccountNumberFrom: account,
        AccountNumberTo: to,
        Amount: amount,
      }),
    );

  it("sends alone only the transfers of one preparer that fit under the preparer's daily total", async () => {
    // The default total: $1,000,000.00 a preparer a day; ten of $150,000.00 at once, six fit.
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => send(world.preparer, "150,000.00", i)),
    );
    const outcomes = results.map((r) => r.outcome).sort();
    expect(outcomes).toEqual([...Array(6).fill("completed"), ...Array(4).fill("draft")]);
    for (const r of results)
      if (r.outcome === "draft") expect(r.draft.approvalPolicy).toMatch(/daily total .* for one preparer/);
  });

  it("sends alone only the transfers from one account that fit under the account's daily total", async () => {
    const set = await policySetNow(world.db);
    const admin = await testUser(world.db, "admin", "admin@sen-total.example", "Admin");
    await writePolicySet(
      world.db,
      { ...set, velocity: { perPreparerDailyCents: null, perAccountDailyCents: 10_000 } },
      { from: set, by: { id: admin.id, email: admin.email }, detail: {} },
    );
    const account = await world.customer.account("SEN", 1_000);
    // Ten preparers, $15.00 each from one account whose total is $100.00: six fit.
    const preparers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        testUser(world.db, "preparer", `p${i}@sen-total.example`, `Preparer ${i}`),
      ),
    );
    const results = await Promise.all(preparers.map((p, i) => send(p, "15.00", i, account)));
    const outcomes = results.map((r) => r.outcome).sort();
    expect(outcomes).toEqual([...Array(6).fill("completed"), ...Array(4).fill("draft")]);
    const bal = await world.customer.api("GET", "/v2/account/balance", { query: { accountNumber: account } });
    expect(bal.json.ResponseData[0].AVAILBAL).toBe(1_000 - 90);
  });
});
