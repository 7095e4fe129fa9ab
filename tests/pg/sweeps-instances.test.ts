// A sweep's slot on a real PostgreSQL server from two dashboard instances (own pools, own bank
// clients) running it at the same moment, several times over: one move, under the slot's key.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { isBusinessDay } from "../../lib/bank-api/business-days.ts";
import { dollarsToCents } from "../../lib/bank-api/money.ts";
import { bankBusinessDate } from "../../lib/schedules/engine.ts";
import { runSweeps, sweepMoveKey } from "../../lib/schedules/sweep-engine.ts";
import { approveSweep, createSweep } from "../../lib/schedules/sweeps.ts";
import { sandbox } from "../helpers/bank.ts";
import { PG_URL } from "../helpers/databases.ts";
import { openPgDraftWorld, type PgDraftWorld } from "../helpers/pg-drafts.ts";
import { dashboardInstance } from "../helpers/routes.ts";

describe.skipIf(!PG_URL)("a sweep on two dashboard instances", () => {
  let world: PgDraftWorld;

  beforeAll(async () => {
    world = await openPgDraftWorld("sweeps-fleet", { approvers: 1, startDollars: 1_000 });
  }, 300_000);
  afterAll(async () => {
    await world?.close();
  });

  it("moves once when two instances run the same sweep slot at once", async () => {
    const { bank, customer, dbUrl } = world;
    const instance = () => dashboardInstance(dbUrl, bank.url, customer.key);
    const [a, b] = [await instance(), await instance()];
    try {
      let day = (await bankBusinessDate(a.client, "America/New_York")) as string;
      while (!isBusinessDay(day))
        day = (
          await sandbox<{ businessDate: string }>(bank, "POST", "/sandbox/clock", { advanceSeconds: 86_400 })
        ).businessDate;
      const kept = await customer.account("SEN", 0);
      const funding = await customer.account("SEN", 100_000);
      const own = new Set([kept, funding]);
      const prep = { id: world.preparer.id, email: world.preparer.email };
      const appr = { id: world.approvers[0].id, email: world.approvers[0].email };
      const s = await createSweep(
        a.db,
        prep,
        randomUUID(),
        {
          name: "Fleet band",
          account: kept,
          fundingAccount: funding,
          lowCents: 5_000_000,
          highCents: 20_000_000,
          runAt: "00:00",
        },
        own,
      );
      await approveSweep(b.db, appr, s.id, 1);
      const runs = await Promise.all(
        [a, b, a, b, a, b].map((i) => runSweeps(i.db, i.client, { today: day, time: "23:59" })),
      );
      expect(runs.reduce((n, r) => n + r.moved, 0)).toBe(1);

      const r = await a.client.call("history", {
        query: { accountNumber: funding, beginDate: day, endDate: day },
      });
      if (!r.ok) throw new Error(r.error.message);
      const debits = r.data.ResponseData.flatMap((x) => x.TRANSACTION).filter((t) => t.DRCRFLAG === "D");
      expect(debits.map((t) => t.IDEMPOTENCYKEY)).toEqual([sweepMoveKey(s.id, day, "run")]);
      const bal = await a.client.call("balance", { query: { accountNumber: kept } });
      if (!bal.ok) throw new Error(bal.error.message);
      expect(Number(dollarsToCents(bal.data.ResponseData[0].AVAILBAL))).toBe(5_000_000);
      const rows = await a.db.query<{ status: string }>(
        "SELECT status FROM sweep_moves WHERE sweep_id = $1",
        [s.id],
      );
      expect(rows.map((x) => x.status)).toEqual(["sent"]);
    } finally {
      await a.db.close();
      await b.db.close();
    }
  });
});
