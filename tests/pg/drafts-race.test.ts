// Two and more approvers releasing one draft at the same moment, with the dashboard database and
// the bank both on a real PostgreSQL server (PGlite's single connection would serialise them):
// every round exactly one release wins, the others answer 409, and the bank holds one wire per draft.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { UserRow } from "../../lib/auth/users.ts";
import { dollarsToCents } from "../../lib/bank-api/money.ts";
import type { TestCustomer } from "../helpers/bank.ts";
import { openPgDraftWorld, type PgDraftWorld } from "../helpers/pg-drafts.ts";
import { invoke } from "../helpers/routes.ts";

describe.skipIf(!process.env.TEST_DATABASE_URL)("draft release on PostgreSQL under concurrency", () => {
  let world: PgDraftWorld;
  let customer: TestCustomer;
  let account: string;
  let preparer: UserRow;
  let approvers: UserRow[];

  beforeAll(async () => {
    world = await openPgDraftWorld("race", { approvers: 3 });
    ({ customer, account, preparer, approvers } = world);
  });

  afterAll(async () => {
    await world?.close();
  });

  const post = (
    load: () => Promise<unknown>,
    as: UserRow,
    body: unknown,
    params: Record<string, string> = {},
  ) => invoke(load, "POST", "/api/x", { as, body, params });

  it("pays each draft once however many approvers release it together", async () => {
    const rounds = 15;
    const paid: string[] = [];
    for (let i = 0; i < rounds; i++) {
      const made = await post(() => import("../../app/api/wires/route.ts"), preparer, {
        idempotencyKey: randomUUID(),
        originator_account_number: account,
        amount: `${i + 1}.25`,
        beneficiary_name: "Race Beneficiary",
        beneficiary_account_number: "4000123",
        beneficiary_address1: "2 Side Street",
        receiving_bank_routing_id: "021000021",
      });
      expect(made.status).toBe(200);
      const id = made.json.draft.id as string;
      const replies = await Promise.all(
        approvers.map((a) =>
          post(() => import("../../app/api/drafts/[id]/release/route.ts"), a, { version: 1 }, { id }),
        ),
      );
      const winners = replies.filter((r) => r.status === 200);
      expect(winners, `round ${i}: ${JSON.stringify(replies)}`).toHaveLength(1);
      expect(replies.filter((r) => r.status === 409)).toHaveLength(approvers.length - 1);
      paid.push(winners[0].json.draft.paymentId);
    }
    const begin = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
    const listed = (
      await customer.api("GET", "/v2/payment", {
        query: { account_number: account, begin_date: begin, page_size: 1000 },
      })
    ).json;
    expect(listed).toHaveLength(rounds);
    expect(new Set(listed.map((p: { payment_id: string }) => p.payment_id))).toEqual(new Set(paid));
    const bal = await customer.api("GET", "/v2/account/balance", { query: { accountNumber: account } });
    const spentCents = Array.from({ length: rounds }, (_, i) => (i + 1) * 100 + 25).reduce(
      (a, b) => a + b,
      0,
    );
    expect(dollarsToCents(bal.json.ResponseData[0].AVAILBAL)).toBe(100_000 * 100 - spentCents);
  });
});
