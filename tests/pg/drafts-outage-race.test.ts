// One draft, one payment, during a wire-system outage, with the dashboard and the bank on a real
// PostgreSQL server: the same approver releasing one draft from several windows at once (2 and 5
// requests), then from two dashboard instances (own pools, own bank clients) at once, and two bank
// instances replaying the backup log at once. After the system is back there is exactly one wire
// per draft at the bank and its funds are held once.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { UserRow } from "../../lib/auth/users.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { BankClient } from "../../lib/bank-client/client.ts";
import { TokenManager } from "../../lib/bank-client/token-manager.ts";
import { type DashboardDb, openDashboardDb } from "../../lib/db/client.ts";
import { releaseDraft } from "../../lib/payments/draft-decisions.ts";
import { settleQueuedDrafts } from "../../lib/payments/draft-settlement.ts";
import {
  newCustomer,
  sandbox,
  startTestBank,
  type TestBank,
  type TestCustomer,
  wireBody,
} from "../helpers/bank.ts";
import { type BankWire, openPgDraftWorld, type PgDraftWorld } from "../helpers/pg-drafts.ts";
import { invoke } from "../helpers/routes.ts";

describe.skipIf(!process.env.TEST_DATABASE_URL)("one draft, one payment during a wire-system outage", () => {
  let world: PgDraftWorld;
  let bank: TestBank;
  let db: DashboardDb;
  let dbUrl: string;
  let customer: TestCustomer;
  let account: string;
  let preparer: UserRow;
  let approver: UserRow;
  const START_DOLLARS = 100_000;

  beforeAll(async () => {
    world = await openPgDraftWorld("outage-race", { approvers: 1, startDollars: START_DOLLARS });
    ({ bank, db, dbUrl, customer, account, preparer } = world);
    [approver] = world.approvers;
  });

  afterAll(async () => {
    await sandbox(bank, "POST", "/sandbox/wire-system", { status: "up" }).catch(() => {});
    await world?.close();
  });

  const wireDraft = async (beneficiary: string, amount: string): Promise<string> => {
    const made = await invoke(() => import("../../app/api/wires/route.ts"), "POST", "/api/wires", {
      as: preparer,
      body: {
        idempotencyKey: randomUUID(),
        originator_account_number: account,
        amount,
        beneficiary_name: "Outage Race Payee",
        beneficiary_account_number: beneficiary,
        beneficiary_address1: "3 Outage Road",
        receiving_bank_routing_id: "021000021",
      },
    });
    expect(made.status).toBe(200);
    return made.json.draft.id as string;
  };
  const release = (id: string) =>
    invoke(() => import("../../app/api/drafts/[id]/release/route.ts"), "POST", "/x", {
      as: approver,
      body: { version: 1 },
      params: { id },
    });
  const wiresTo = (beneficiary: string) => world.wiresTo(beneficiary);
  const balance = () => world.balance();
  const draftRow = async (id: string) =>
    (
      await db.query<{ status: string; payment_id: string | null }>(
        "SELECT status, payment_id FROM payment_drafts WHERE id = $1",
        [id],
      )
    )[0];

  for (const tabs of [2, 5]) {
    it(`pays once when one approver releases a draft ${tabs} times at once while the wire system is down`, async () => {
      const beneficiary = `71${tabs}00`;
      const id = await wireDraft(beneficiary, `${tabs}00.25`);
      const before = await balance();
      await sandbox(bank, "POST", "/sandbox/wire-system", { status: "down" });
      let replies: Awaited<ReturnType<typeof release>>[];
      try {
        replies = await Promise.all(Array.from({ length: tabs }, () => release(id)));
      } finally {
        await sandbox(bank, "POST", "/sandbox/wire-system", { status: "up" });
      }
      const winners = replies.filter((r) => r.status === 200);
      expect(winners, JSON.stringify(replies.map((r) => [r.status, r.json]))).toHaveLength(1);
      expect(winners[0].json.draft).toMatchObject({ status: "queued", channel: "backup" });
      for (const r of replies.filter((x) => x.status !== 200)) expect(r.status).toBe(409);

      await settleQueuedDrafts(
        db,
        async () =>
          new BankClient({
            bankUrl: bank.url,
            subscriptionKey: customer.key,
            tokens: new TokenManager({ db, bankUrl: bank.url, subscriptionKey: customer.key }),
          }),
      );
      const wires = await wiresTo(beneficiary);
      expect(wires.map((w) => [w.payment_id, w.payment_status])).toEqual([
        [winners[0].json.draft.paymentId, "In-Progress"],
      ]);
      const cents = tabs * 10_000 + 25;
      expect(await balance()).toEqual({ available: before.available - cents, holds: before.holds + cents });
      expect(await draftRow(id)).toEqual({ status: "released", payment_id: wires[0].payment_id });
    });
  }

  it("pays each draft once when two dashboard instances release it at once, twice each, during an outage", async () => {
    const instance = async () => {
      const own = await openDashboardDb({ url: dbUrl, poolSize: 4 });
      const client = new BankClient({
        bankUrl: bank.url,
        subscriptionKey: customer.key,
        tokens: new TokenManager({ db: own, bankUrl: bank.url, subscriptionKey: customer.key }),
      });
      return { db: own, client };
    };
    const instances = [await instance(), await instance()];
    const actor = { id: approver.id, email: approver.email };
    try {
      const rounds = 4;
      const drafts: { id: string; beneficiary: string }[] = [];
      for (let i = 0; i < rounds; i++) {
        const beneficiary = `7300${i}`;
        drafts.push({ id: await wireDraft(beneficiary, `1${i}.75`), beneficiary });
      }
      const before = await balance();
      await sandbox(bank, "POST", "/sandbox/wire-system", { status: "down" });
      try {
        for (const d of drafts) {
          const outcomes = await Promise.allSettled(
            [...instances, ...instances].map((x) =>
              releaseDraft(x.db, x.client, actor, d.id, { version: 1 }),
            ),
          );
          const won = outcomes.filter((o) => o.status === "fulfilled");
          expect(won, JSON.stringify(outcomes)).toHaveLength(1);
          for (const o of outcomes)
            if (o.status === "rejected") expect((o.reason as { status?: number }).status).toBe(409);
        }
        expect((await Promise.all(drafts.map((d) => wiresTo(d.beneficiary)))).map((w) => w.length)).toEqual(
          Array(rounds).fill(1),
        );
      } finally {
        await sandbox(bank, "POST", "/sandbox/wire-system", { status: "up" });
      }
      await settleQueuedDrafts(instances[0].db, async () => instances[0].client);
      let cents = 0;
      for (let i = 0; i < rounds; i++) {
        const wires = await wiresTo(drafts[i].beneficiary);
        expect(wires.map((w) => w.payment_status)).toEqual(["In-Progress"]);
        expect(await draftRow(drafts[i].id)).toEqual({ status: "released", payment_id: wires[0].payment_id });
        cents += 1_075 + i * 100;
      }
      expect(await balance()).toEqual({ available: before.available - cents, holds: before.holds + cents });
    } finally {
      for (const x of instances) await x.db.close();
    }
  });

  it("applies each backup-log entry once when two bank instances replay it at once", async () => {
    const second = await startTestBank({
      databaseUrl: bank.databaseUrl,
      env: { BANK_TOKEN_INTERVAL_SECONDS: "0" },
    });
    try {
      const c = await newCustomer(bank);
      const acct = await c.account("DDA", 1_000);
      await sandbox(bank, "POST", "/sandbox/wire-system", { status: "down" });
      const keys = Array.from({ length: 12 }, () => randomUUID());
      // Each wire logged twice, once through each instance, under one key.
      for (const key of keys)
        for (const via of [bank, second]) {
          const r = await fetch(new URL("/v2/payment/backup", via.url), {
            method: "POST",
            headers: {
              "content-type": "application/json",
              [BANK_HEADERS.subscriptionKey]: c.key,
              Authorization: c.token,
              [BANK_HEADERS.idempotencyKey]: key,
            },
            body: JSON.stringify(wireBody(acct, 50)),
          });
          expect(r.status).toBe(200);
        }
      const ups = await Promise.all(
        [bank, second, bank, second].map((b) => sandbox(b, "POST", "/sandbox/wire-system", { status: "up" })),
      );
      expect(ups.reduce((n, u) => n + u.replayed, 0)).toBe(keys.length);
      const begin = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
      const listed = (
        await c.api("GET", "/v2/payment", { query: { account_number: acct, begin_date: begin } })
      ).json as BankWire[];
      expect(listed.map((p) => p.payment_status)).toEqual(Array(keys.length).fill("In-Progress"));
      const bal = await c.api("GET", "/v2/account/balance", { query: { accountNumber: acct } });
      expect(bal.json.ResponseData[0]).toMatchObject({ AVAILBAL: 400, TOTALHOLDS: 600 });
    } finally {
      await second.close();
    }
  });
});
