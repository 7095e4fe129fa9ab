// The statement subscription against a real bank and its sandbox mail box over SMTP: made today,
// nothing is sent before 07:00 of the bank's next business day (its clock, moved by the sandbox);
// past it, one e-mail carries the prior-day BAI2, which parses and holds the bank's history, and
// the Statements page lists and serves the same file; running again (a restart) sends nothing more.
// A delivered file is kept 90 days, then a run removes it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { UserRow } from "../../lib/auth/users.ts";
import { addBusinessDays } from "../../lib/bank-api/business-days.ts";
import { addDays, businessDayFormatter } from "../../lib/bank-api/dates.ts";
import type { Transaction } from "../../lib/bank-api/history.ts";
import { unwrap } from "../../lib/bank-client/errors.ts";
import { config } from "../../lib/config.ts";
import { daysFrom } from "../../lib/history/read.ts";
import { deliverMail } from "../../lib/inbox/digest.ts";
import { KEEP_DAYS, runStatementSubscriptions } from "../../lib/statements/subscriptions.ts";
import { readBai2 } from "../helpers/bai2-reader.ts";
import { sandbox, sandboxMailTo } from "../helpers/bank.ts";
import { invoke, openRouteWorld, type RouteWorld, testUser } from "../helpers/routes.ts";
import { wallTime } from "../helpers/wall-time.ts";

const routes = {
  subscriptions: () => import("../../app/api/statements/subscriptions/route.ts"),
  subscription: () => import("../../app/api/statements/subscriptions/[id]/route.ts"),
  delivery: () => import("../../app/api/statements/subscriptions/[id]/deliveries/[day]/route.ts"),
};

let world: RouteWorld;
let admin: UserRow;
let viewer: UserRow;
let senA: string;
let senB: string;

const mailbox = (to: string) => sandboxMailTo(world.bank, to);

async function bankDay(account: string, day: string): Promise<Transaction[]> {
  const r = unwrap(
    await world.client!.call("extendedHistory", {
      query: { accountNumber: account, date: day, displayOrder: "A" },
    }),
  );
  return r.ResponseData.flatMap((d) => d.TRANSACTION);
}

beforeAll(async () => {
  world = await openRouteWorld("statement-subscriptions", {
    customer: "Subscribed Close Corp",
    bankEnv: { BANK_SANDBOX_SMTP_PORT: "0" },
  });
  admin = await testUser(world.db, "admin", "controller@subscribed.example");
  viewer = await testUser(world.db, "viewer", "viewer@subscribed.example");
  senA = await world.customer.account("SEN", 10_000);
  senB = await world.customer.account("SEN", 2_000);
  for (const amount of [12.34, 56.78])
    unwrap(
      await world.client!.call("transferSen", {
        body: { AccountNumberFrom: senA, AccountNumberTo: senB, Amount: amount },
        idempotencyKey: crypto.randomUUID(),
      }),
    );
}, 120_000);

afterAll(async () => {
  await world?.close();
});

const run = async () => {
  const mail = { smtpUrl: world.bank.running.sandboxSmtpUrl, from: "t@treasury.example" };
  const out = await runStatementSubscriptions(world.db, world.client!, { timeZone: config().timeZone, mail });
  await deliverMail(world.db, mail);
  return out;
};

describe("statement subscriptions", () => {
  it("e-mails the prior-day BAI2 once, at 07:00 of the bank's next business day, and keeps it on the Statements page", {
    timeout: 120_000,
  }, async () => {
    const clock = world.bank.running.bank.clock;
    const today = clock.businessDate();
    // Only the dashboard's people receive statements; only administrators subscribe.
    const stranger = await invoke(routes.subscriptions, "POST", "/api/statements/subscriptions", {
      as: admin,
      body: { name: "Close", accounts: [senA], recipients: ["someone@elsewhere.example"] },
    });
    expect(stranger.status).toBe(400);
    expect(stranger.json.error.fields[0].field).toBe("recipients");
    const byViewer = await invoke(routes.subscriptions, "POST", "/api/statements/subscriptions", {
      as: viewer,
      body: { name: "Close", accounts: [senA], recipients: [viewer.email] },
    });
    expect(byViewer.status).toBe(403);

    const made = await invoke(routes.subscriptions, "POST", "/api/statements/subscriptions", {
      as: admin,
      body: { name: "Daily close", accounts: [senA, senB], recipients: [admin.email, viewer.email] },
    });
    expect(made.status).toBe(201);
    const id: string = made.json.subscription.id;

    // Today (whatever its hour) delivers nothing: the first delivery is the next business day's.
    expect((await run()).delivered).toBe(0);
    const next = addBusinessDays(today, 1);
    const zone = config().timeZone;
    // Just before 07:00 of the next business day: still nothing.
    const before = wallTime(next, "06:58", zone);
    await sandbox(world.bank, "POST", "/sandbox/clock", {
      advanceSeconds: Math.ceil((before - clock.now().getTime()) / 1000),
    });
    expect(clock.businessDate()).toBe(next);
    expect((await run()).delivered).toBe(0);
    expect(await mailbox(admin.email)).toEqual([]);
    // Past 07:00.
    await sandbox(world.bank, "POST", "/sandbox/clock", { advanceSeconds: 5 * 60 });
    const out = await run();
    expect(out).toMatchObject({ businessDay: next, delivered: 1, failed: 0 });
    // Again, as after a restart: nothing more.
    expect((await run()).delivered).toBe(0);

    const mails = await mailbox(admin.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toContain(viewer.email);
    expect(mails[0].attachments).toHaveLength(1);
    const att = mails[0].attachments[0];
    expect(att.filename).toMatch(/\.bai$/);
    const text = Buffer.from(att.contentBase64, "base64").toString("utf8");
    const file = readBai2(text);
    // Prior-day reporting from the previous business day through yesterday, every day, both accounts.
    const from = addBusinessDays(next, -1);
    const days = daysFrom(from, next < today ? today : next).filter((d) => d < next);
    expect(file.groups.map((g) => g.asOfDate)).toEqual(days.map((d) => d.slice(2).replaceAll("-", "")));
    for (const [gi, day] of days.entries()) {
      for (const account of [senA, senB]) {
        const set = file.groups[gi].accounts.find((a) => a.accountNumber === account);
        expect(set?.details.length).toBe((await bankDay(account, day)).length);
      }
    }
    // Today's two transfers are in it.
    const todayGroup = file.groups[days.indexOf(today)];
    const sent = todayGroup.accounts
      .find((a) => a.accountNumber === senA)
      ?.details.filter((d) => d.typeCode === "506");
    expect(sent?.map((d) => d.amount)).toEqual([1234n, 5678n]);

    // Listed on the Statements page and downloadable there, the same bytes.
    const listed = await invoke(routes.subscriptions, "GET", "/api/statements/subscriptions", { as: viewer });
    expect(listed.status).toBe(200);
    expect(listed.json.deliveries).toEqual([
      expect.objectContaining({ subscriptionId: id, businessDay: next, fromDay: from, toDay: days.at(-1) }),
    ]);
    const download = await invoke(
      routes.delivery,
      "GET",
      `/api/statements/subscriptions/${id}/deliveries/${next}`,
      { as: viewer, params: { id, day: next } },
    );
    expect(download.status).toBe(200);
    expect(download.text).toBe(text);

    // Cancelled: the next business day's 07:00 sends nothing; the file stays.
    const cancelled = await invoke(routes.subscription, "DELETE", `/api/statements/subscriptions/${id}`, {
      as: admin,
      params: { id },
    });
    expect(cancelled.status).toBe(200);
    await sandbox(world.bank, "POST", "/sandbox/clock", {
      advanceSeconds: Math.ceil(
        (wallTime(addBusinessDays(next, 1), "07:05", zone) - clock.now().getTime()) / 1000,
      ),
    });
    expect((await run()).delivered).toBe(0);
    expect(await mailbox(admin.email)).toHaveLength(1);
    const audit = await world.db.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE action LIKE 'statement_subscription.%' ORDER BY id",
    );
    expect(audit.map((a) => a.action)).toEqual([
      "statement_subscription.create",
      "statement_subscription.cancel",
    ]);
  });

  it(`keeps a delivered file ${KEEP_DAYS} days: a run removes the one older, not the one on the last day kept`, async () => {
    const now = world.bank.running.bank.clock.now();
    const today = businessDayFormatter(config().timeZone)(now);
    const [sub] = await world.db.query<{ id: string }>(
      `INSERT INTO statement_subscriptions (id, name, accounts, recipients, starts_on, created_by, cancelled_at)
       VALUES (gen_random_uuid(), 'Kept', $1, $2, $3, $4, now()) RETURNING id`,
      [[senA], [admin.email], addDays(today, -KEEP_DAYS - 30), admin.id],
    );
    const stored = (day: string) =>
      world.db.query(
        `INSERT INTO statement_deliveries (subscription_id, business_day, from_day, to_day, status, file_name, content, delivered_at)
         VALUES ($1, $2, $2, $2, 'delivered', $3, 'file', now())`,
        [sub.id, day, `${day}.bai`],
      );
    const tooOld = addDays(today, -KEEP_DAYS - 1);
    const lastKept = addDays(today, -KEEP_DAYS);
    const recent = addDays(today, -1);
    for (const day of [tooOld, lastKept, recent]) await stored(day);

    const mail = { smtpUrl: world.bank.running.sandboxSmtpUrl, from: "t@treasury.example" };
    await runStatementSubscriptions(world.db, world.client!, { timeZone: config().timeZone, now, mail });
    const left = await world.db.query<{ business_day: string }>(
      "SELECT business_day FROM statement_deliveries WHERE subscription_id = $1 ORDER BY business_day",
      [sub.id],
    );
    expect(left.map((r) => r.business_day)).toEqual([lastKept, recent]);
  });
});
