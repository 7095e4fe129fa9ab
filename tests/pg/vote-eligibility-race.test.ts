// A demotion racing the deciding vote, on a real PostgreSQL server: an administrator's change to
// approver A (on another connection, as another dashboard instance would make it) that has not yet
// committed when approver B's release lands makes the release wait for it and then see it, so A's
// earlier vote is struck and nothing is sent; demotions and releases thrown together answer and
// send at most once.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { UserRow } from "../../lib/auth/users.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import { PG_URL } from "../helpers/databases.ts";
import { openPgDraftWorld, type PgDraftWorld } from "../helpers/pg-drafts.ts";
import { invoke, testUser } from "../helpers/routes.ts";

describe.skipIf(!PG_URL)("a demotion racing the deciding vote", () => {
  let world: PgDraftWorld;
  let db: DashboardDb;
  let admin: UserRow;

  beforeAll(async () => {
    world = await openPgDraftWorld("vote-race", { approvers: 0 });
    ({ db } = world);
    admin = await testUser(db, "admin", "admin@vote-race.example", "Admin");
    // $1,000.00: lowering the limit strengthens the control, so one administrator may.
    const set = await invoke(() => import("../../app/api/admin/settings/route.ts"), "PUT", "/x", {
      as: admin,
      body: { releaseDualApprovalCents: 100_000 },
    });
    expect(set.status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await world?.close();
  });

  const approver = (n: string) =>
    testUser(db, "approver", `${n}-${randomUUID().slice(0, 8)}@vote-race.example`, n);
  const wireDraft = async (beneficiary: string) => {
    const made = await invoke(() => import("../../app/api/wires/route.ts"), "POST", "/x", {
      as: world.preparer,
      body: {
        idempotencyKey: randomUUID(),
        originator_account_number: world.account,
        amount: "2,000.00",
        beneficiary_name: "Vote Race Payee",
        beneficiary_account_number: beneficiary,
        beneficiary_address1: "5 Race Road",
        receiving_bank_routing_id: "021000021",
      },
    });
    expect(made.status).toBe(200);
    expect(made.json.draft.approvalsRequired).toBe(2);
    return made.json.draft.id as string;
  };
  const release = (as: UserRow, id: string) =>
    invoke(() => import("../../app/api/drafts/[id]/release/route.ts"), "POST", "/x", {
      as,
      body: { version: 1 },
      params: { id },
    });

  it("waits for a demotion under way and then does not count the demoted vote", async () => {
    const a = await approver("A");
    const b = await approver("B");
    const id = await wireDraft("77001");
    expect((await release(a, id)).json.draft.status).toBe("pending");

    const other = new pg.Client({ connectionString: world.dbUrl });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query("UPDATE users SET role = 'viewer', disabled = true WHERE id = $1", [a.id]);
      const deciding = release(b, id);
      // The release reaches A's row and waits on the uncommitted demotion.
      for (;;) {
        const waiting = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> $1`,
          [(await other.query("SELECT pg_backend_pid() AS pid")).rows[0].pid],
        );
        if (waiting[0].n > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await other.query("COMMIT");
      const r = await deciding;
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      expect(r.json.draft.status).toBe("pending");
      expect(r.json.message).toMatch(/Nothing was sent/);
    } finally {
      await other.end();
    }
    expect(await world.wiresTo("77001")).toEqual([]);
  }, 120_000);

  it("answers every interleaving of a demotion and the deciding vote, and sends at most once", async () => {
    for (let round = 0; round < 8; round++) {
      const a = await approver(`A${round}`);
      const b = await approver(`B${round}`);
      const beneficiary = `772${round}0`;
      const id = await wireDraft(beneficiary);
      expect((await release(a, id)).json.draft.status).toBe("pending");
      const other = new pg.Client({ connectionString: world.dbUrl });
      await other.connect();
      const demote = other.query("UPDATE users SET role = 'viewer', disabled = true WHERE id = $1", [a.id]);
      const [r] = await Promise.all([release(b, id), demote]);
      await other.end();
      expect(r.status).toBe(200);
      const wires = await world.wiresTo(beneficiary);
      if (r.json.draft.status === "released") {
        // Decided before the demotion committed (the demotion waited for it): sent once.
        expect(wires).toHaveLength(1);
      } else {
        expect(r.json.draft.status).toBe("pending");
        expect(wires).toEqual([]);
      }
    }
  }, 300_000);
});
