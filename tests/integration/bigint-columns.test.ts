// A bigint reads the same everywhere: a JS number from the bank's and the dashboard's databases,
// on PGlite and on PostgreSQL (TEST_DATABASE_URL) alike, and an error past 2^53 rather than a
// rounded amount (a date, likewise, is its YYYY-MM-DD on both). The reading is each connection's own: pg's process-wide parsers keep their
// defaults, so a plain pg client in the same process still reads a bigint as text.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBankDb } from "../../bank/db/client.ts";
import { appendAudit, readAudit } from "../../lib/audit/log.ts";
import { openDashboardDb } from "../../lib/db/client.ts";
import { createTestDatabase, PG_URL } from "../helpers/databases.ts";

interface Opened {
  name: string;
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

const opened: Opened[] = [];
const databases: { drop(): Promise<void> }[] = [];

beforeAll(async () => {
  opened.push({ name: "bank on PGlite", ...(await openBankDb({ dataDir: "memory://" })) });
  opened.push({ name: "dashboard on PGlite", ...(await openDashboardDb({ dataDir: "memory://" })) });
  if (PG_URL) {
    const bank = await createTestDatabase(PG_URL);
    const dashboard = await createTestDatabase(PG_URL);
    databases.push(bank, dashboard);
    opened.push({ name: "bank on PostgreSQL", ...(await openBankDb({ url: bank.url, poolSize: 2 })) });
    opened.push({
      name: "dashboard on PostgreSQL",
      ...(await openDashboardDb({ url: dashboard.url, poolSize: 2 })),
    });
  }
});

afterAll(async () => {
  for (const db of opened) await db.close();
  for (const d of databases) await d.drop();
});

describe("bigint columns", () => {
  it("read as numbers on every driver and in both programs, and a date as its day", async () => {
    expect(opened.length).toBe(PG_URL ? 4 : 2);
    for (const db of opened) {
      const [row] = await db.query(
        `SELECT x AS cents, count(*) AS n, ARRAY[x, NULL, 3]::bigint[] AS list, '2026-03-09'::date AS day
         FROM (VALUES (9007199254740991::bigint)) t(x) GROUP BY x`,
      );
      expect({ driver: db.name, row }).toStrictEqual({
        driver: db.name,
        row: { cents: 9007199254740991, n: 1, list: [9007199254740991, null, 3], day: "2026-03-09" },
      });
    }
  });

  it("refuses a bigint past Number.MAX_SAFE_INTEGER instead of rounding it", async () => {
    for (const db of opened) {
      await expect(db.query("SELECT 9007199254740993::bigint AS cents"), db.name).rejects.toThrow(
        /beyond the exact range/,
      );
      // The connection stays usable after the refused row.
      expect(await db.query("SELECT 1::bigint AS one"), db.name).toStrictEqual([{ one: 1 }]);
    }
  });

  it("reads a bigserial column's value as a number through a store", async () => {
    for (const db of opened.filter((d) => d.name.startsWith("dashboard"))) {
      await appendAudit(db, { actorId: null, actorEmail: null, action: "test.bigint", result: "ok" });
      const [entry] = await readAudit(db, 1, { action: "test.bigint" });
      expect(typeof entry.id, db.name).toBe("number");
    }
  });

  it("leaves pg's process-wide parsers alone: a plain client still reads a bigint as text", async () => {
    expect(pg.types.getTypeParser(20, "text")("42")).toBe("42");
    if (!PG_URL) return;
    const plain = new pg.Client({ connectionString: PG_URL });
    await plain.connect();
    try {
      expect((await plain.query("SELECT 42::bigint AS n")).rows).toStrictEqual([{ n: "42" }]);
    } finally {
      await plain.end();
    }
  });
});
