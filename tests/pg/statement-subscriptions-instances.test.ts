// Statement subscriptions run by two dashboard instances (own pools, own bank clients) on a real
// PostgreSQL server at the same 07:00, one more subscription's claim left behind by a run that
// died: each subscription's business day is e-mailed once, through the bank's sandbox mail box.
// A day both instances keep failing (a mail server that refuses) is attempted once per due time,
// given up once, told once to each of its people, and in their inbox (GET /api/inbox, read on
// either instance) once.
import { afterAll, describe, expect, it } from "vitest";

import { addBusinessDays } from "../../lib/bank-api/business-days.ts";
import { setBankClient } from "../../lib/bank-client/index.ts";
import { setDashboardDb } from "../../lib/db/client.ts";
import { deliverMail } from "../../lib/inbox/digest.ts";
import { createSubscription, runStatementSubscriptions } from "../../lib/statements/subscriptions.ts";
import { sandbox } from "../helpers/bank.ts";
import { PG_URL } from "../helpers/databases.ts";
import { startRefusingSmtp } from "../helpers/refusing-smtp.ts";
import { invoke, testUser } from "../helpers/routes.ts";
import { statementFleet } from "../helpers/statement-fleet.ts";
import { wallTime } from "../helpers/wall-time.ts";

const ZONE = "America/New_York";

/** The instant of `day` at 07:05 on the bank's wall clock. */
const sevenOFive = (day: string) => wallTime(day, "07:05", ZONE);

describe.skipIf(!PG_URL)("statement subscriptions on two dashboard instances", () => {
  const fleet = statementFleet("Fleet Close Co", "fleet-close.example");
  afterAll(() => {
    setBankClient(undefined);
    setDashboardDb(undefined);
  });

  it("e-mails each subscription's 07:00 statement once when both instances run it at once", async () => {
    const { bank } = fleet;
    const [a, b] = await fleet.twoInstances();
    try {
      const clock = bank.running.bank.clock;
      const today = clock.businessDate();
      const subs = await fleet.subscribe(a.db, 6, "Close", "r");
      const next = addBusinessDays(today, 1);
      // A run that died holding the last one's claim (claimed long ago): it is taken over.
      await a.db.query(
        `INSERT INTO statement_deliveries (subscription_id, business_day, from_day, to_day, status, claim_token, claimed_at)
         VALUES ($1, $2, $3, $4, 'claimed', 'dead-run', now() - interval '1 hour')`,
        [subs[5].id, next, addBusinessDays(next, -1), next],
      );
      await sandbox(bank, "POST", "/sandbox/clock", {
        advanceSeconds: Math.ceil((sevenOFive(next) - clock.now().getTime()) / 1000),
      });
      const smtp = { smtpUrl: bank.running.sandboxSmtpUrl, from: "t@treasury.example" };
      const runs = await Promise.all(
        [a, b, a, b].map(async (x) => {
          const out = await runStatementSubscriptions(x.db, x.client, { timeZone: ZONE, mail: smtp });
          await deliverMail(x.db, smtp);
          return out;
        }),
      );
      expect(runs.every((r) => r.businessDay === next && r.failed === 0)).toBe(true);
      expect(runs.reduce((s, r) => s + r.delivered, 0)).toBe(6);
      await Promise.all([deliverMail(a.db, smtp), deliverMail(b.db, smtp)]);

      for (const [i, s] of subs.entries()) {
        const mails = await fleet.mailTo(`r${i}@fleet-close.example`);
        expect(mails, `subscription ${i}`).toHaveLength(1);
        expect(mails[0].attachments).toHaveLength(1);
        const rows = await a.db.query<{ status: string }>(
          "SELECT status FROM statement_deliveries WHERE subscription_id = $1",
          [s.id],
        );
        expect(rows).toEqual([{ status: "delivered" }]);
      }
      const queued = await a.db.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM mail_outbox WHERE kind = 'statement'",
      );
      expect(queued[0].n).toBe("6");
    } finally {
      await a.db.close();
      await b.db.close();
    }
  }, 240_000);

  it("gives up a day both instances fail once, tells each of its people once, and shows it once in their inbox on either instance", async () => {
    const { bank, admin, key, accounts } = fleet;
    const [a, b] = await fleet.twoInstances();
    const refusing = await startRefusingSmtp();
    // The inbox route reads this database and this bank, as a dashboard process configured so would.
    process.env.NEXTAUTH_SECRET = "test-nextauth-secret-0123456789abcdef";
    process.env.NEXTAUTH_URL = "http://127.0.0.1:3999";
    process.env.BANK_API_URL = bank.url;
    process.env.BANK_SUBSCRIPTION_KEY = key;
    setBankClient(undefined);
    try {
      const clock = bank.running.bank.clock;
      const second = await testUser(a.db, "admin", "second@fleet-close.example", "Second admin");
      const viewer = await testUser(a.db, "viewer", "books@fleet-close.example", "Books");
      const s = await createSubscription(
        a.db,
        { id: admin.id, email: admin.email },
        { name: "Refused close", accounts, recipients: [viewer.email], bankToday: clock.businessDate() },
      );
      const day = addBusinessDays(clock.businessDate(), 1);
      await sandbox(bank, "POST", "/sandbox/clock", {
        advanceSeconds: Math.ceil((sevenOFive(day) - clock.now().getTime()) / 1000),
      });
      const row = async () =>
        (
          await a.db.query<{ status: string; attempts: number; next_attempt_at: Date | null }>(
            "SELECT status, attempts, next_attempt_at FROM statement_deliveries WHERE subscription_id = $1 AND business_day = $2",
            [s.id, day],
          )
        )[0];
      // Each due time both instances run at once (twice each): one attempt is made, not two.
      const mail = { smtpUrl: refusing.url, from: "t@treasury.example" };
      for (let attempt = 1; ; attempt++) {
        await Promise.all(
          [a, b, a, b].map((x) => runStatementSubscriptions(x.db, x.client, { timeZone: ZONE, mail })),
        );
        const r = await row();
        expect(r.attempts, `due time ${attempt}`).toBe(attempt);
        if (r.status === "failed") break;
        expect(attempt).toBeLessThan(8);
        await sandbox(bank, "POST", "/sandbox/clock", {
          advanceSeconds:
            Math.ceil((new Date(r.next_attempt_at as Date).getTime() - clock.now().getTime()) / 1000) + 1,
        });
      }
      expect(await row()).toMatchObject({ status: "failed", attempts: 8 });

      const told = await a.db.query<{ to: string }>(
        `SELECT "to" FROM mail_outbox WHERE kind = 'statement.failed' AND subject LIKE '%Refused close%' ORDER BY "to"`,
      );
      expect(told.map((m) => m.to)).toEqual([admin.email, second.email].sort());
      const audited = await a.db.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM audit_log WHERE action = 'statement_subscription.delivery' AND target = $1",
        [`${s.id}/${day}`],
      );
      expect(audited[0].n).toBe("1");

      const inbox = () => import("../../app/api/inbox/route.ts");
      for (const x of [a, b]) {
        setDashboardDb(x.db);
        for (const who of [admin, second, viewer]) {
          const r = await invoke(inbox, "GET", "/api/inbox", { as: who });
          expect(r.status, r.text).toBe(200);
          const mine = (
            r.json.statementNotices as { subscriptionId: string; businessDay: string; reason: string }[]
          ).filter((n) => n.subscriptionId === s.id);
          if (who === viewer) expect(mine).toEqual([]);
          else
            expect(mine).toEqual([
              expect.objectContaining({
                businessDay: day,
                reason: expect.stringMatching(/Relay access denied/),
              }),
            ]);
        }
      }
    } finally {
      setDashboardDb(undefined);
      await refusing.close();
      await a.db.close();
      await b.db.close();
    }
  }, 300_000);
});
