// A statement subscription whose delivery keeps failing, against a real bank, its sandbox mail box
// and its clock: an SMTP server that refuses every message makes each attempt fail; the attempts
// come 1, 5, 15, then 60 minutes apart (the bank's clock), and after the eighth the day is failed
// with the refusal as its reason, no statement e-mailed, its owner and the administrators told.
// "Retry now" (an administrator, audited) sends it once; nothing sends it again. A bank that cannot
// be reached is a failed attempt too. And a dashboard that ran on no day for three business days
// delivers each missed day once, oldest first. A day given up is in the inbox of the owner and the
// administrators, with its reason, marked once a later day is delivered, and gone once it is.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { UserRow } from "../../lib/auth/users.ts";
import { addBusinessDays } from "../../lib/bank-api/business-days.ts";
import { addDays } from "../../lib/bank-api/dates.ts";
import { BankClient } from "../../lib/bank-client/client.ts";
import { unwrap } from "../../lib/bank-client/errors.ts";
import { TokenManager } from "../../lib/bank-client/token-manager.ts";
import { config } from "../../lib/config.ts";
import { deliverMail } from "../../lib/inbox/digest.ts";
import { runStatementSubscriptions } from "../../lib/statements/subscriptions.ts";
import { readBai2 } from "../helpers/bai2-reader.ts";
import { sandbox, sandboxMailTo } from "../helpers/bank.ts";
import { type RefusingSmtp, startRefusingSmtp } from "../helpers/refusing-smtp.ts";
import { invoke, openRouteWorld, type RouteWorld, testUser } from "../helpers/routes.ts";
import { wallTime } from "../helpers/wall-time.ts";

const routes = {
  subscriptions: () => import("../../app/api/statements/subscriptions/route.ts"),
  subscription: () => import("../../app/api/statements/subscriptions/[id]/route.ts"),
  retry: () => import("../../app/api/statements/subscriptions/[id]/deliveries/[day]/retry/route.ts"),
  inbox: () => import("../../app/api/inbox/route.ts"),
};

let world: RouteWorld;
let admin: UserRow;
let owner: UserRow;
let viewer: UserRow;
let sen: string;
let refusing: RefusingSmtp;
let refusingUrl: string;

const mailbox = (to: string) => sandboxMailTo(world.bank, to);

const yymmdd = (day: string) => day.slice(2).replaceAll("-", "");
const zone = () => config().timeZone;
const runRefused = () => run(refusingUrl);
const goodSmtp = () => ({ smtpUrl: world.bank.running.sandboxSmtpUrl, from: "t@treasury.example" });
const run = (smtpUrl: string | undefined) =>
  runStatementSubscriptions(world.db, world.client!, {
    timeZone: zone(),
    mail: { smtpUrl, from: "t@treasury.example" },
  });

async function moveClockTo(at: number) {
  const clock = world.bank.running.bank.clock;
  await sandbox(world.bank, "POST", "/sandbox/clock", {
    advanceSeconds: Math.ceil((at - clock.now().getTime()) / 1000),
  });
}

async function subscribe(name: string, recipients: string[]): Promise<string> {
  const made = await invoke(routes.subscriptions, "POST", "/api/statements/subscriptions", {
    as: admin,
    body: { name, accounts: [sen], recipients },
  });
  expect(made.status).toBe(201);
  return made.json.subscription.id;
}

beforeAll(async () => {
  world = await openRouteWorld("statement-subscription-retries", {
    customer: "Retried Close Corp",
    bankEnv: { BANK_SANDBOX_SMTP_PORT: "0" },
  });
  admin = await testUser(world.db, "admin", "admin@retried.example");
  owner = await testUser(world.db, "admin", "owner@retried.example");
  viewer = await testUser(world.db, "viewer", "books@retried.example");
  sen = await world.customer.account("SEN", 10_000);
  const other = await world.customer.account("SEN", 1_000);
  unwrap(
    await world.client!.call("transferSen", {
      body: { AccountNumberFrom: sen, AccountNumberTo: other, Amount: 4.56 },
      idempotencyKey: crypto.randomUUID(),
    }),
  );
  refusing = await startRefusingSmtp();
  refusingUrl = refusing.url;
}, 120_000);

afterAll(async () => {
  await refusing?.close();
  await world?.close();
});

/** A subscription's delivery of a business day, as stored. */
async function deliveryOf(id: string, day: string) {
  const [r] = await world.db.query<{ status: string; attempts: number; next_attempt_at: Date | null }>(
    "SELECT status, attempts, next_attempt_at FROM statement_deliveries WHERE subscription_id = $1 AND business_day = $2",
    [id, day],
  );
  return r;
}

/** Runs with the refusing mail server, each when the day's next attempt is due, until it is given up. */
async function failUntilGivenUp(id: string, day: string): Promise<void> {
  for (let run = 1; run <= 8; run++) {
    const before = (await deliveryOf(id, day))?.attempts ?? 0;
    await runRefused();
    const r = await deliveryOf(id, day);
    expect(r.attempts, `run ${run}`).toBe(before + 1);
    if (r.status === "failed") return;
    await moveClockTo(new Date(r.next_attempt_at as Date).getTime() + 1_000);
  }
  throw new Error(`${day} was not given up after eight attempts`);
}

/** The statement notices of one subscription in a person's inbox, as GET /api/inbox answers. */
async function statementNoticesOf(who: UserRow, subscriptionId: string) {
  const r = await invoke(routes.inbox, "GET", "/api/inbox", { as: who });
  expect(r.status, r.text).toBe(200);
  return (r.json.statementNotices as { subscriptionId: string }[]).filter(
    (n) => n.subscriptionId === subscriptionId,
  );
}

describe("statement subscription deliveries that fail", () => {
  it("retries with backoff, then marks the day failed with its reason and tells its people; Retry now sends it once", {
    timeout: 180_000,
  }, async () => {
    const clock = world.bank.running.bank.clock;
    const today = clock.businessDate();
    // Made by the owner (an administrator), sent to the viewer.
    const made = await invoke(routes.subscriptions, "POST", "/api/statements/subscriptions", {
      as: owner,
      body: { name: "Refused close", accounts: [sen], recipients: [viewer.email] },
    });
    expect(made.status).toBe(201);
    const id: string = made.json.subscription.id;
    const day = addBusinessDays(today, 1);
    await moveClockTo(wallTime(day, "07:05", zone()));

    const row = async () =>
      (
        await world.db.query<{
          status: string;
          attempts: number;
          last_error: string | null;
          next_attempt_at: Date | null;
        }>(
          "SELECT status, attempts, last_error, next_attempt_at FROM statement_deliveries WHERE subscription_id = $1 AND business_day = $2",
          [id, day],
        )
      )[0];
    // Eight attempts, 1, 5, 15, 60, 60, 60, 60 minutes apart by the bank's clock.
    const waits = [1, 5, 15, 60, 60, 60, 60];
    for (let attempt = 1; attempt <= 8; attempt++) {
      const out = await run(refusingUrl);
      expect(out, `attempt ${attempt}`).toMatchObject({
        delivered: 0,
        failed: 1,
        gaveUp: attempt === 8 ? 1 : 0,
      });
      expect(refusing.refused()).toBe(attempt);
      const r = await row();
      expect(r.attempts).toBe(attempt);
      expect(r.last_error).toMatch(/Relay access denied/);
      if (attempt === 8) break;
      expect(r.status).toBe("retrying");
      const wait = waits[attempt - 1] * 60_000;
      expect(new Date(r.next_attempt_at as Date).getTime() - clock.now().getTime()).toBeGreaterThan(
        wait - 60_000,
      );
      // Not before its time: a run a little before it is due does nothing.
      await moveClockTo(new Date(r.next_attempt_at as Date).getTime() - 20_000);
      expect((await run(refusingUrl)).failed).toBe(0);
      expect(refusing.refused()).toBe(attempt);
      await moveClockTo(new Date(r.next_attempt_at as Date).getTime() + 1_000);
    }
    expect(await row()).toMatchObject({ status: "failed", attempts: 8, next_attempt_at: null });

    // Given up: later runs, even with a mail server that works, do not send it.
    expect(await run(goodSmtp().smtpUrl)).toMatchObject({ delivered: 0, failed: 0 });
    await moveClockTo(clock.now().getTime() + 2 * 3600_000);
    expect(await run(goodSmtp().smtpUrl)).toMatchObject({ delivered: 0, failed: 0 });
    await deliverMail(world.db, goodSmtp());
    expect(await mailbox(viewer.email)).toEqual([]);
    // The owner and the administrators are told, with the reason.
    for (const person of [owner, admin]) {
      const told = await mailbox(person.email);
      expect(told.map((m) => m.subject)).toEqual([`Statement not delivered: Refused close for ${day}`]);
    }
    const notices = await world.db.query<{ text: string }>(
      "SELECT text FROM mail_outbox WHERE kind = 'statement.failed' AND \"to\" = $1",
      [owner.email],
    );
    expect(notices[0].text).toMatch(/after 8 attempts: .*Relay access denied/);

    // The Statements page lists it as failed, with its reason.
    const listed = await invoke(routes.subscriptions, "GET", "/api/statements/subscriptions", { as: viewer });
    expect(listed.json.deliveries).toEqual([
      expect.objectContaining({
        subscriptionId: id,
        businessDay: day,
        status: "failed",
        attempts: 8,
        fileName: null,
        reason: expect.stringMatching(/Relay access denied/),
      }),
    ]);

    // Retry now: administrators only, a day that is one, a delivery that exists.
    const path = `/api/statements/subscriptions/${id}/deliveries/${day}/retry`;
    const byViewer = await invoke(routes.retry, "POST", path, { as: viewer, params: { id, day } });
    expect(byViewer.status).toBe(403);
    const badDay = await invoke(routes.retry, "POST", path, {
      as: admin,
      params: { id, day: "2026-02-30x" },
    });
    expect(badDay.status).toBe(404);
    expect(badDay.json.error.fields[0].field).toBe("day");
    const none = await invoke(routes.retry, "POST", path, {
      as: admin,
      params: { id, day: addBusinessDays(day, -3) },
    });
    expect(none.status).toBe(404);
    const retried = await invoke(routes.retry, "POST", path, { as: admin, params: { id, day } });
    expect(retried.status).toBe(200);
    expect(retried.json.delivery).toMatchObject({ status: "retrying", businessDay: day });
    // Asked twice: the second finds it no longer failed.
    expect((await invoke(routes.retry, "POST", path, { as: admin, params: { id, day } })).status).toBe(409);

    // The next run sends it, once.
    expect(await run(goodSmtp().smtpUrl)).toMatchObject({ delivered: 1, failed: 0 });
    expect(await run(goodSmtp().smtpUrl)).toMatchObject({ delivered: 0, failed: 0 });
    await deliverMail(world.db, goodSmtp());
    const mails = await mailbox(viewer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].attachments).toHaveLength(1);
    const file = readBai2(Buffer.from(mails[0].attachments[0].contentBase64, "base64").toString("utf8"));
    // The prior-day statement: from the previous business day through the day before.
    expect(file.groups[0].asOfDate).toBe(yymmdd(addBusinessDays(day, -1)));
    expect(file.groups.at(-1)?.asOfDate).toBe(yymmdd(addDays(day, -1)));
    // A delivered day is never retried.
    const again = await invoke(routes.retry, "POST", path, { as: admin, params: { id, day } });
    expect(again.status).toBe(409);
    await moveClockTo(clock.now().getTime() + 3 * 3600_000);
    expect((await run(goodSmtp().smtpUrl)).delivered).toBe(0);
    expect(await mailbox(viewer.email)).toHaveLength(1);
    const listedAfter = await invoke(routes.subscriptions, "GET", "/api/statements/subscriptions", {
      as: viewer,
    });
    expect(listedAfter.json.deliveries).toEqual([
      expect.objectContaining({ businessDay: day, status: "delivered", reason: null }),
    ]);

    const audit = await world.db.query<{ action: string; result: string; actor_email: string }>(
      "SELECT action, result, actor_email FROM audit_log WHERE action LIKE 'statement_subscription.%' ORDER BY id",
    );
    expect(audit).toEqual([
      { action: "statement_subscription.create", result: "ok", actor_email: owner.email },
      { action: "statement_subscription.delivery", result: "failed", actor_email: "statements" },
      { action: "statement_subscription.retry", result: "ok", actor_email: admin.email },
    ]);
    const cancelled = await invoke(routes.subscription, "DELETE", `/api/statements/subscriptions/${id}`, {
      as: owner,
      params: { id },
    });
    expect(cancelled.status).toBe(200);
  });

  it("delivers each business day no instance ran on, oldest first, once each", {
    timeout: 180_000,
  }, async () => {
    const clock = world.bank.running.bank.clock;
    const today = clock.businessDate();
    const id = await subscribe("Caught up", [viewer.email]);
    const first = addBusinessDays(today, 1);
    const missed = [first, addBusinessDays(first, 1), addBusinessDays(first, 2)];
    // Back before 07:00 of the fourth business day: the three missed days are due, not that one.
    const back = addBusinessDays(first, 3);
    await moveClockTo(wallTime(back, "06:30", zone()));
    const before = (await mailbox(viewer.email)).length;
    expect(await run(goodSmtp().smtpUrl)).toMatchObject({ businessDay: null, delivered: 3, failed: 0 });
    expect((await run(goodSmtp().smtpUrl)).delivered).toBe(0);
    const mails = (await mailbox(viewer.email)).slice(before);
    expect(mails.map((m) => m.subject)).toEqual(
      missed.map((d) => {
        const from = addBusinessDays(d, -1);
        const to = addDays(d, -1);
        return `BAI2 statement ${from === to ? to : `${from} to ${to}`}: Caught up`;
      }),
    );
    const rows = await world.db.query<{ business_day: string; status: string }>(
      "SELECT business_day, status FROM statement_deliveries WHERE subscription_id = $1 ORDER BY business_day",
      [id],
    );
    expect(rows).toEqual(missed.map((d) => ({ business_day: d, status: "delivered" })));
    // Its own 07:00 then delivers that day alone; a refused first attempt is sent by the next one.
    await moveClockTo(wallTime(back, "07:05", zone()));
    expect(await run(refusingUrl)).toMatchObject({ businessDay: back, delivered: 0, failed: 1 });
    await moveClockTo(wallTime(back, "07:06", zone()) + 1_000);
    expect(await run(goodSmtp().smtpUrl)).toMatchObject({ businessDay: back, delivered: 1, failed: 0 });
    expect((await mailbox(viewer.email)).slice(before)).toHaveLength(4);

    // Cancelled while a day waits for its next attempt: that day ends failed, and is not retried.
    const next = addBusinessDays(back, 1);
    await moveClockTo(wallTime(next, "07:05", zone()));
    expect(await run(refusingUrl)).toMatchObject({ businessDay: next, failed: 1 });
    const cancelled = await invoke(routes.subscription, "DELETE", `/api/statements/subscriptions/${id}`, {
      as: admin,
      params: { id },
    });
    expect(cancelled.status).toBe(200);
    const [left] = await world.db.query<{ status: string; last_error: string }>(
      "SELECT status, last_error FROM statement_deliveries WHERE subscription_id = $1 AND business_day = $2",
      [id, next],
    );
    expect(left.status).toBe("failed");
    expect(left.last_error).toMatch(/Relay access denied.*the subscription was cancelled/);
    const retry = await invoke(
      routes.retry,
      "POST",
      `/api/statements/subscriptions/${id}/deliveries/${next}/retry`,
      {
        as: admin,
        params: { id, day: next },
      },
    );
    expect(retry.status).toBe(409);
    await moveClockTo(wallTime(next, "09:00", zone()));
    expect((await run(goodSmtp().smtpUrl)).delivered).toBe(0);
    expect((await mailbox(viewer.email)).slice(before)).toHaveLength(4);
  });

  it("counts a bank that cannot be reached as a failed attempt, and the next due attempt delivers once", {
    timeout: 120_000,
  }, async () => {
    const clock = world.bank.running.bank.clock;
    const id = await subscribe("Bank away", [admin.email]);
    const day = addBusinessDays(clock.businessDate(), 1);
    await moveClockTo(wallTime(day, "07:05", zone()));
    const before = (await mailbox(admin.email)).length;
    // The dashboard sees no bank: an address where nothing listens.
    const away = new BankClient({
      bankUrl: "http://127.0.0.1:9",
      subscriptionKey: world.customer.subscriptionKey,
      tokens: new TokenManager({
        db: world.db,
        bankUrl: "http://127.0.0.1:9",
        subscriptionKey: world.customer.subscriptionKey,
      }),
      retryBaseMs: 5,
    });
    const out = await runStatementSubscriptions(world.db, away, {
      timeZone: zone(),
      now: clock.now(),
      mail: goodSmtp(),
    });
    expect(out).toMatchObject({ businessDay: day, delivered: 0, failed: 1, gaveUp: 0 });
    const [row] = await world.db.query<{ status: string; last_error: string }>(
      "SELECT status, last_error FROM statement_deliveries WHERE subscription_id = $1 AND business_day = $2",
      [id, day],
    );
    expect(row.status).toBe("retrying");
    expect(row.last_error).toBe("The bank cannot be reached right now. Try again in a moment.");
    // The bank back, but the minute not yet over: nothing; then it is sent, once.
    expect(await run(goodSmtp().smtpUrl)).toMatchObject({ delivered: 0, failed: 0 });
    await moveClockTo(clock.now().getTime() + 61_000);
    expect(await run(goodSmtp().smtpUrl)).toMatchObject({ delivered: 1, failed: 0 });
    expect(await run(goodSmtp().smtpUrl)).toMatchObject({ delivered: 0, failed: 0 });
    const mails = (await mailbox(admin.email)).slice(before);
    expect(mails.map((m) => m.subject)).toEqual([
      `BAI2 statement ${addBusinessDays(day, -1) === addDays(day, -1) ? addDays(day, -1) : `${addBusinessDays(day, -1)} to ${addDays(day, -1)}`}: Bank away`,
    ]);
  });

  it("puts a day given up in the inbox of the owner and the administrators with its reason, marks it when a later day is delivered, and clears it once it is delivered", {
    timeout: 180_000,
  }, async () => {
    const clock = world.bank.running.bank.clock;
    const made = await invoke(routes.subscriptions, "POST", "/api/statements/subscriptions", {
      as: owner,
      body: { name: "Inbox close", accounts: [sen], recipients: [viewer.email] },
    });
    expect(made.status).toBe(201);
    const id: string = made.json.subscription.id;
    const day = addBusinessDays(clock.businessDate(), 1);
    await moveClockTo(wallTime(day, "07:05", zone()));
    // While it is still being retried it is not news yet.
    await runRefused();
    expect(await deliveryOf(id, day)).toMatchObject({ status: "retrying", attempts: 1 });
    expect(await statementNoticesOf(owner, id)).toEqual([]);
    await moveClockTo(clock.now().getTime() + 61_000);
    await failUntilGivenUp(id, day);

    const given = {
      key: `statement:${id}/${day}`,
      subscriptionId: id,
      name: "Inbox close",
      businessDay: day,
      fromDay: addBusinessDays(day, -1),
      toDay: addDays(day, -1),
      accounts: [sen],
      attempts: 8,
      reason: expect.stringMatching(/Relay access denied/),
      failedAt: expect.any(String),
      laterDeliveredDay: null,
    };
    // The people the failure e-mail goes to: the owner and every administrator, not the recipient.
    for (const person of [owner, admin]) expect(await statementNoticesOf(person, id)).toEqual([given]);
    expect(await statementNoticesOf(viewer, id)).toEqual([]);
    const count = await invoke(routes.inbox, "GET", "/api/inbox?view=count", { as: owner });
    expect(count.json.statementNotices).toBeUndefined();

    // The next business day is delivered: the failed day stays, marked, since its file never went.
    const later = addBusinessDays(day, 1);
    await moveClockTo(wallTime(later, "07:05", zone()));
    await run(goodSmtp().smtpUrl);
    expect((await deliveryOf(id, later)).status).toBe("delivered");
    expect((await deliveryOf(id, day)).status).toBe("failed");
    for (const person of [owner, admin])
      expect(await statementNoticesOf(person, id)).toEqual([{ ...given, laterDeliveredDay: later }]);

    // Retry now, and the next run delivers it: the notice is gone from every inbox.
    const retried = await invoke(
      routes.retry,
      "POST",
      `/api/statements/subscriptions/${id}/deliveries/${day}/retry`,
      { as: admin, params: { id, day } },
    );
    expect(retried.status).toBe(200);
    await run(goodSmtp().smtpUrl);
    expect((await deliveryOf(id, day)).status).toBe("delivered");
    for (const person of [owner, admin]) expect(await statementNoticesOf(person, id)).toEqual([]);

    const cancelled = await invoke(routes.subscription, "DELETE", `/api/statements/subscriptions/${id}`, {
      as: owner,
      params: { id },
    });
    expect(cancelled.status).toBe(200);
  });
});
