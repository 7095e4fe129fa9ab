// Statement subscriptions after every dashboard instance was down for three business days, on a
// real PostgreSQL server and a real bank: two instances (own pools, own bank clients) come back
// together before 07:00 of the fourth, and each subscription's three missed days are e-mailed
// once each through the bank's sandbox mail box, each holding its own day's range.
import { describe, expect, it } from "vitest";

import { addBusinessDays } from "../../lib/bank-api/business-days.ts";
import { addDays } from "../../lib/bank-api/dates.ts";
import { runStatementSubscriptions } from "../../lib/statements/subscriptions.ts";
import { readBai2 } from "../helpers/bai2-reader.ts";
import { sandbox } from "../helpers/bank.ts";
import { PG_URL } from "../helpers/databases.ts";
import { statementFleet } from "../helpers/statement-fleet.ts";
import { wallTime } from "../helpers/wall-time.ts";

const ZONE = "America/New_York";
const yymmdd = (day: string) => day.slice(2).replaceAll("-", "");

describe.skipIf(!PG_URL)("statement subscriptions after three business days with no instance", () => {
  const fleet = statementFleet("Dormant Close Co", "dormant-close.example");

  it("delivers each missed business day once when two instances come back together", async () => {
    const { bank } = fleet;
    const [a, b] = await fleet.twoInstances();
    try {
      const clock = bank.running.bank.clock;
      const today = clock.businessDate();
      const subs = await fleet.subscribe(a.db, 3, "Dormant", "d");
      const first = addBusinessDays(today, 1);
      const missed = [first, addBusinessDays(first, 1), addBusinessDays(first, 2)];
      const back = addBusinessDays(first, 3);
      // No instance ran from now until 06:30 of the fourth business day.
      await sandbox(bank, "POST", "/sandbox/clock", {
        advanceSeconds: Math.ceil((wallTime(back, "06:30", ZONE) - clock.now().getTime()) / 1000),
      });
      expect(clock.businessDate()).toBe(back);
      const mail = { smtpUrl: bank.running.sandboxSmtpUrl, from: "t@treasury.example" };
      const runs = await Promise.all(
        [a, b, a, b].map((x) => runStatementSubscriptions(x.db, x.client, { timeZone: ZONE, mail })),
      );
      expect(runs.every((r) => r.businessDay === null && r.failed === 0)).toBe(true);
      expect(runs.reduce((s, r) => s + r.delivered, 0)).toBe(subs.length * missed.length);

      for (const [i, s] of subs.entries()) {
        const mails = await fleet.mailTo(`d${i}@dormant-close.example`);
        expect(mails, `subscription ${i}`).toHaveLength(missed.length);
        // One message per missed day, each the prior-day statement of that day.
        const ranges = mails
          .map((m) => {
            const file = readBai2(Buffer.from(m.attachments[0].contentBase64, "base64").toString("utf8"));
            return [file.groups[0].asOfDate, file.groups.at(-1)?.asOfDate];
          })
          .sort((x, y) => String(x[0]).localeCompare(String(y[0])));
        expect(ranges).toEqual(missed.map((d) => [yymmdd(addBusinessDays(d, -1)), yymmdd(addDays(d, -1))]));
        const rows = await a.db.query<{ business_day: string; status: string }>(
          "SELECT business_day, status FROM statement_deliveries WHERE subscription_id = $1 ORDER BY business_day",
          [s.id],
        );
        expect(rows).toEqual(missed.map((d) => ({ business_day: d, status: "delivered" })));
      }
      const recorded = await a.db.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM mail_outbox WHERE kind = 'statement'",
      );
      expect(recorded[0].n).toBe(String(subs.length * missed.length));
      // Runs again, as after a restart: nothing more.
      const again = await Promise.all(
        [a, b].map((x) => runStatementSubscriptions(x.db, x.client, { timeZone: ZONE, mail })),
      );
      expect(again.map((r) => r.delivered)).toEqual([0, 0]);
    } finally {
      await a.db.close();
      await b.db.close();
    }
  }, 240_000);
});
