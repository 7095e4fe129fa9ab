// The schedule run on a real PostgreSQL server from two dashboard instances (own pools, own bank
// clients) running the same business days at once, one of them also dying mid-run (a claim left
// behind): every occurrence of every series paid once, none missed, money conserved.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { UserRow } from "../../lib/auth/users.ts";
import { addDays } from "../../lib/bank-api/dates.ts";
import { dollarsToCents } from "../../lib/bank-api/money.ts";
import { occurrencesBetween, type Schedule, toRule, WEEKDAYS } from "../../lib/calendar/recurrence.ts";
import { bankBusinessDate, runSchedules } from "../../lib/schedules/engine.ts";
import { createSeries, occurrenceKey } from "../../lib/schedules/series.ts";
import { sandbox } from "../helpers/bank.ts";
import { PG_URL } from "../helpers/databases.ts";
import { openPgDraftWorld, type PgDraftWorld } from "../helpers/pg-drafts.ts";
import { dashboardInstance } from "../helpers/routes.ts";

describe.skipIf(!PG_URL)("schedules on two dashboard instances", () => {
  let world: PgDraftWorld;
  let preparer: UserRow;

  beforeAll(async () => {
    world = await openPgDraftWorld("schedules-fleet", { approvers: 1, startDollars: 1_000 });
    preparer = world.preparer;
  }, 300_000);
  afterAll(async () => {
    await world?.close();
  });

  it("pays every occurrence once when two instances run the same 25 bank days at once", async () => {
    const { bank, customer, dbUrl } = world;
    const instance = () => dashboardInstance(dbUrl, bank.url, customer.key);
    const [a, b] = [await instance(), await instance()];
    try {
      const from = await customer.account("SEN", 1_000_000);
      const to = await customer.account("SEN", 0);
      const start = (await bankBusinessDate(a.client, "America/New_York")) as string;
      const actor = { id: preparer.id, email: preparer.email };
      const series: { id: string; schedule: Schedule; cents: number }[] = [];
      for (let i = 0; i < 20; i++) {
        const schedule: Schedule = {
          startsOn: start,
          pattern:
            i % 4 === 0
              ? { kind: "monthly-day", day: 1 + i }
              : { kind: "weekly", everyWeeks: 1 + (i % 2), weekday: WEEKDAYS[i % 5] },
          count: null,
          until: null,
          roll: i % 3 === 0 ? "preceding" : "following",
        };
        const cents = 1_000 + i;
        const s = await createSeries(
          a.db,
          actor,
          {
            id: randomUUID(),
            kind: "sen",
            name: `Fleet ${i}`,
            fromAccount: from,
            amountCents: cents,
            counterparty: to,
            request: { AccountNumberFrom: from, AccountNumberTo: to, Amount: cents / 100 },
            schedule,
          },
          start,
        );
        series.push({ id: s.id, schedule, cents });
      }
      let day = start;
      for (let d = 0; d < 25; d++) {
        if (d === 7) {
          // Instance b dies mid-run: it claimed the day's first occurrences and never finished them.
          await b.db.query(
            `UPDATE series_occurrences SET status = 'sending', claim_token = $1, claimed_at = now() - interval '1 hour'
             WHERE status = 'due'`,
            [randomUUID()],
          );
        }
        await Promise.all([
          runSchedules(a.db, a.client, { today: day, batch: 3 }),
          runSchedules(b.db, b.client, { today: day, batch: 3 }),
          runSchedules(a.db, a.client, { today: day, batch: 3 }),
        ]);
        day = (
          await sandbox<{ businessDate: string }>(bank, "POST", "/sandbox/clock", { advanceSeconds: 86_400 })
        ).businessDate;
      }
      // A last pass after every lease has run out picks up anything a dead run held. A run that met
      // no answer (a token another instance renewed before the last clock move is refused once)
      // leaves the occurrence due and stops, as the product's ticker does, which runs again: so here.
      for (let i = 0; i < 5; i++) {
        const report = await runSchedules(a.db, a.client, { today: addDays(day, -1), leaseSeconds: 0 });
        if (!report.retry) break;
      }
      const last = addDays(day, -1);

      const read = () =>
        a.client.call("history", { query: { accountNumber: from, beginDate: start, endDate: day } });
      let r = await read();
      // A token another instance renewed before the last clock move is refused once more; the next call renews it.
      for (let i = 0; !r.ok && r.error.status === 401 && i < 3; i++) r = await read();
      if (!r.ok) throw new Error(r.error.message);
      const byKey = new Map<string, number>();
      let debited = 0;
      for (const t of r.data.ResponseData.flatMap((x) => x.TRANSACTION))
        if (t.DRCRFLAG === "D") {
          byKey.set(t.IDEMPOTENCYKEY, (byKey.get(t.IDEMPOTENCYKEY) ?? 0) + 1);
          debited += Number(dollarsToCents(t.TRANAMT));
        }
      let expectedCount = 0;
      let expectedCents = 0;
      for (const s of series)
        for (const o of occurrencesBetween(toRule(s.schedule), s.schedule.roll, start, last)) {
          expect(byKey.get(occurrenceKey(s.id, o.nominal)), `${s.id} ${o.nominal}`).toBe(1);
          expectedCount++;
          expectedCents += s.cents;
        }
      expect(expectedCount).toBeGreaterThan(30);
      expect([...byKey.values()].reduce((x, y) => x + y, 0)).toBe(expectedCount);
      expect(debited).toBe(expectedCents);
      const toBalance = await a.client.call("balance", { query: { accountNumber: to } });
      if (!toBalance.ok) throw new Error(toBalance.error.message);
      expect(Number(dollarsToCents(toBalance.data.ResponseData[0].AVAILBAL))).toBe(expectedCents);
      const open = await a.db.query(`SELECT 1 FROM series_occurrences WHERE status IN ('due', 'sending')`);
      expect(open).toHaveLength(0);
    } finally {
      await a.db.close();
      await b.db.close();
    }
  });
});
