// Two live hubs (two dashboard instances' worth of connections) on one PostgreSQL database: a
// notification delivered to both at once is stored once and reaches each instance's listeners
// once (LISTEN/NOTIFY); a burst of notifications on the wrong side of a line, spread over both,
// fires one alert (for the one that crossed), and a series of crossings fires one per crossing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type DashboardDb, openDashboardDb } from "../../lib/db/client.ts";
import { LIVE_ORDER_LOCK, type LiveEvent, LiveHub } from "../../lib/live/hub.ts";
import { createTestDatabase, PG_URL } from "../helpers/databases.ts";

describe.skipIf(!PG_URL)("live hubs on one PostgreSQL database", () => {
  let database: { url: string; drop(): Promise<void> };
  const dbs: DashboardDb[] = [];
  const hubs: LiveHub[] = [];
  const got: LiveEvent[][] = [[], []];

  beforeAll(async () => {
    database = await createTestDatabase(PG_URL as string);
    for (let i = 0; i < 2; i++) {
      const db = await openDashboardDb({ url: database.url, poolSize: 8 });
      const hub = new LiveHub(db, { listenUrl: database.url });
      await hub.start();
      hub.subscribe((e) => got[i].push(e));
      dbs.push(db);
      hubs.push(hub);
    }
  });
  afterAll(async () => {
    for (const h of hubs) await h.close();
    for (const d of dbs) await d.close();
    await database?.drop();
  });

  const until = async (ok: () => boolean, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!ok()) {
      if (Date.now() > end) throw new Error("not in time");
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const count = async (sql: string, params: unknown[]) =>
    Number((await dbs[0].query<{ n: string }>(sql, params))[0].n);

  it("stores a notification given to both instances once, and each instance's listeners get it once", async () => {
    const results = await Promise.all(
      hubs.map((h) =>
        h.record({ webhookId: "msg_both", accountNumber: "100", availableCents: 5, previousCents: 1 }),
      ),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    await until(() => got[0].length === 1 && got[1].length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(got[0].map((e) => e.seq)).toEqual(got[1].map((e) => e.seq));
    expect(got[0]).toHaveLength(1);
    expect(
      await count("SELECT count(*)::text AS n FROM live_events WHERE webhook_id = $1", ["msg_both"]),
    ).toBe(1);
  });

  it("fires one alert for a burst under the line spread over both instances, and one per later crossing", async () => {
    await dbs[0].query("INSERT INTO alert_rules (account_number, below_cents) VALUES ('200', 100000)");
    // 40 notifications, the first one falling under the line from over it, the rest under it,
    // half through each instance, all at once.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        hubs[i % 2].record({
          webhookId: `msg_burst_${i}`,
          accountNumber: "200",
          availableCents: 50_000 - i,
          previousCents: i === 0 ? 150_000 : 50_001 - i,
        }),
      ),
    );
    expect(await count("SELECT count(*)::text AS n FROM alerts WHERE account_number = $1", ["200"])).toBe(1);

    // Back over, under (fires), still under, over, under (fires): two more.
    const series = [150_000, 90_000, 80_000, 120_000, 10_000];
    for (const [i, cents] of series.entries())
      await Promise.all(
        hubs.map((h) =>
          h.record({
            webhookId: `msg_series_${i}`,
            accountNumber: "200",
            availableCents: cents,
            previousCents: i === 0 ? 49_961 : series[i - 1],
          }),
        ),
      );
    const alerts = await dbs[0].query<{ available_cents: string }>(
      "SELECT available_cents::text FROM alerts WHERE account_number = '200' ORDER BY id",
    );
    expect(alerts.slice(1).map((a) => a.available_cents)).toEqual(["90000", "10000"]);
    // Every instance heard every stored event of the account, once each.
    const stored = await count("SELECT count(*)::text AS n FROM live_events WHERE account_number = $1", [
      "200",
    ]);
    expect(stored).toBe(45);
    await until(() => got.every((g) => g.filter((e) => e.accountNumber === "200").length === 45));
    for (const g of got) {
      const seqs = g.filter((e) => e.accountNumber === "200").map((e) => e.seq);
      expect(new Set(seqs).size).toBe(45);
    }
    const fired = got[0].filter((e) => e.alerts.length > 0).map((e) => e.availableCents);
    expect(fired.slice(1)).toEqual([90_000, 10_000]);
  });

  it("catches up after its LISTEN connection is cut: what was stored meanwhile still arrives", async () => {
    const before = got[1].length;
    const admin = await dbs[0].query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN treasury_live'",
    );
    expect(admin.length).toBe(2);
    // Cut both listeners, then store while they are down.
    for (const { pid } of admin) await dbs[0].query("SELECT pg_terminate_backend($1)", [pid]);
    await hubs[0].record({ webhookId: "msg_gap", accountNumber: "300", availableCents: 7, previousCents: 8 });
    await until(() => got[1].slice(before).some((e) => e.accountNumber === "300"), 15_000);
    expect(got[1].slice(before).filter((e) => e.accountNumber === "300")).toHaveLength(1);
  });
});

describe.skipIf(!PG_URL)("live events commit in the order of their seq", () => {
  it("makes a second event wait for the first one's commit, so a resume after seq N misses nothing below N", async () => {
    const database = await createTestDatabase(PG_URL as string);
    const db = await openDashboardDb({ url: database.url, poolSize: 4 });
    const hub = new LiveHub(db, { listenUrl: database.url });
    await hub.start();
    const pg = (await import("pg")).default;
    const first = new pg.Client({ connectionString: database.url });
    await first.connect();
    try {
      // An event whose transaction is still open: it has its seq, not yet its commit.
      await first.query("BEGIN");
      await first.query("SELECT pg_advisory_xact_lock($1)", [LIVE_ORDER_LOCK]);
      await first.query(
        `INSERT INTO live_events (webhook_id, account_number, available_cents, previous_cents)
         VALUES ('msg_open', '300', 1, 0)`,
      );
      let secondDone = false;
      const second = hub
        .record({ webhookId: "msg_later", accountNumber: "300", availableCents: 2, previousCents: 1 })
        .then((e) => {
          secondDone = true;
          return e;
        });
      await new Promise((r) => setTimeout(r, 500));
      expect(secondDone).toBe(false);
      await first.query("COMMIT");
      const later = await second;
      const stored = await db.query<{ webhook_id: string; seq: string }>(
        "SELECT webhook_id, seq::text FROM live_events ORDER BY seq",
      );
      expect(stored.map((r) => r.webhook_id)).toEqual(["msg_open", "msg_later"]);
      expect(later?.seq).toBe(Number(stored[1].seq));
      expect((await hub.since(Number(stored[0].seq) - 1)).map((e) => e.seq)).toEqual(
        stored.map((r) => Number(r.seq)),
      );
    } finally {
      await first.end();
      await hub.close();
      await db.close();
      await database.drop();
    }
  });
});
