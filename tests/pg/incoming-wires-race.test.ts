// Decisions on one incoming wire from several approvers at the same moment, with the dashboard
// database on a real PostgreSQL server (PGlite's single connection would serialise them).
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { TokenManager } from "../../lib/bank-client/index.ts";
import { type DashboardDb, openDashboardDb } from "../../lib/db/client.ts";
import { decideIncomingWire } from "../../lib/incoming-wires/decide.ts";
import { sandbox, sandboxCustomer, startTestBank, type TestBank } from "../helpers/bank.ts";
import { createTestDatabase, PG_URL } from "../helpers/databases.ts";
import { CountingBankClient, testUser } from "../helpers/routes.ts";

describe.skipIf(!PG_URL)("incoming-wire decisions on PostgreSQL under concurrency", () => {
  let bank: TestBank;
  let db: DashboardDb;
  let drop: () => Promise<void>;
  let client: CountingBankClient;
  let acct: string;
  // Real approvers: each counted vote is judged against its voter as they stand when it decides.
  const approvers: { id: string; email: string }[] = [];

  beforeAll(async () => {
    bank = await startTestBank({ env: { BANK_SETTLE_AFTER_SECONDS: "86400" } });
    const d = await createTestDatabase(PG_URL as string);
    drop = d.drop;
    db = await openDashboardDb({ url: d.url, poolSize: 12 });
    const c = await sandboxCustomer(bank, "Race Traders LLC");
    acct = await c.account("DDA", 10);
    for (let i = 0; i < 6; i++)
      approvers.push(await testUser(db, "approver", `approver${i}@race.example`, `Approver ${i}`));
    client = new CountingBankClient({
      bankUrl: bank.url,
      subscriptionKey: c.subscriptionKey,
      tokens: new TokenManager({ db, bankUrl: bank.url, subscriptionKey: c.subscriptionKey }),
    });
  }, 180_000);

  afterAll(async () => {
    await db?.close();
    await drop?.();
    await bank?.close();
    if (bank?.dataDir) fs.rmSync(bank.dataDir, { recursive: true, force: true });
  });

  const wire = (amount: number) =>
    sandbox<{ payment_id: string; payment_timestamp: string }>(bank, "POST", "/sandbox/incoming-wires", {
      accountNumber: acct,
      amount,
    });

  it("sends exactly one decision when six approvers act on one wire at once, every round", async () => {
    for (let round = 0; round < 15; round++) {
      const w = await wire(25);
      client.sent = [];
      const results = await Promise.allSettled(
        approvers.map((a, i) =>
          decideIncomingWire(db, client, a, w.payment_id, {
            accountNumber: acct,
            action: i % 2 ? "cancel" : "approve",
            paymentTimestamp: w.payment_timestamp,
          }),
        ),
      );
      const ok = results.filter((r) => r.status === "fulfilled");
      expect(ok, `round ${round}`).toHaveLength(1);
      for (const r of results)
        if (r.status === "rejected")
          expect((r.reason as { status?: number }).status, `round ${round}`).toBe(409);
      expect(
        client.sent.filter((n) => n === "paymentAction"),
        `round ${round}`,
      ).toHaveLength(1);
      const live = await db.query<{ n: string }>(
        "SELECT count(*) AS n FROM incoming_wire_decisions WHERE payment_id = $1 AND state NOT IN ('rejected', 'failed')",
        [w.payment_id],
      );
      expect(Number(live[0].n)).toBe(1);
    }
  });

  it("above the limit, two approvers agreeing at the same moment send it once", async () => {
    for (let round = 0; round < 15; round++) {
      const w = await wire(2_000_000);
      client.sent = [];
      const [a, b] = await Promise.all(
        approvers.slice(0, 2).map((u) =>
          decideIncomingWire(db, client, u, w.payment_id, {
            accountNumber: acct,
            action: "approve",
            paymentTimestamp: w.payment_timestamp,
          }),
        ),
      );
      expect([a.outcome, b.outcome].sort(), `round ${round}`).toEqual(["awaiting_second_approval", "sent"]);
      expect(
        client.sent.filter((n) => n === "paymentAction"),
        `round ${round}`,
      ).toHaveLength(1);
    }
  });
});
