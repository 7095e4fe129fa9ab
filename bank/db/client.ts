// One database interface over PGlite (embedded default) and node-postgres (BANK_DATABASE_URL),
// migrations applied at open; raw SQL typed by SqlRow (docs/decisions.md, "Queries").
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { openMigratedPg, openMigratedPglite, type SchemaSource } from "../../lib/server/database.ts";
import { PG_TYPES } from "../../lib/server/db-types.ts";
import { poolQuery, poolTransaction } from "../../lib/server/pg-pool.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The bank's tables (migrations) and its current SQL functions. */
export const BANK_SCHEMA_SOURCE: SchemaSource = {
  migrations: path.join(HERE, "migrations"),
  functions: path.join(HERE, "functions"),
};

export interface Queryable {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface HotPath {
  /** A statement on the hot path, prepared once per connection on PostgreSQL (no parse or plan per call). */
  prepared<T = Record<string, unknown>>(name: string, text: string, params: unknown[]): Promise<T[]>;
}

export interface BankDb extends Queryable, HotPath {
  kind: "pglite" | "pg";
  /** Runs fn in one transaction (BEGIN/COMMIT, rolled back on throw). */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Calls fn on each NOTIFY of the channel; returns an unsubscribe function. */
  listen(channel: string, fn: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export async function openBankDb(opts: {
  url?: string;
  dataDir?: string;
  poolSize?: number;
}): Promise<BankDb> {
  if (opts.url) return openPg(opts.url, opts.poolSize ?? 10);
  return openPglite(opts.dataDir ?? ".data/bank");
}

async function openPglite(dataDir: string): Promise<BankDb> {
  const { client, close } = await openMigratedPglite(dataDir, BANK_SCHEMA_SOURCE);
  const query = async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows;
  return {
    kind: "pglite",
    query,
    prepared: (_name, text, params) => query(text, params),
    // PGlite has one connection; its transaction() serialises callers.
    tx: (fn) =>
      client.transaction((t) =>
        fn({ query: async (text, params) => (await t.query(text, params)).rows as never }),
      ),
    async listen(channel, fn) {
      const unsub = await client.listen(channel, () => fn());
      return async () => unsub();
    },
    close,
  };
}

async function openPg(url: string, poolSize: number): Promise<BankDb> {
  const pool = await openMigratedPg(url, poolSize, "bank-db", BANK_SCHEMA_SOURCE, 72410001);
  const query = poolQuery(pool);
  return {
    kind: "pg",
    query,
    prepared: async <T>(name: string, text: string, params: unknown[]) =>
      (await pool.query({ name, text, values: params as unknown[] })).rows as T[],
    tx: (fn) => poolTransaction(pool, fn),
    async listen(channel, fn) {
      // One connection kept for LISTEN, of its own outside the pool (a pool of one stays free for
      // queries). When it is lost (a server restart, a network cut), another is opened after a
      // pause and fn is called once, since notifications may have been missed meanwhile; until
      // then the callers' own timers cover.
      let stopped = false;
      let conn: { client: pg.Client; detach(): void } | null = null;
      let retry: NodeJS.Timeout | undefined;
      const onNotification = (m: pg.Notification) => {
        if (m.channel === channel) fn();
      };
      const connect = async (): Promise<void> => {
        const c = new pg.Client({ connectionString: url, types: PG_TYPES });
        let lost = false;
        const detach = () => {
          lost = true;
          c.off("notification", onNotification);
          c.off("error", onLost);
          c.off("end", onLost);
        };
        const onLost = () => {
          if (lost) return;
          detach();
          // Its own error listener stays: a late error of a dead connection is no one's concern.
          c.on("error", () => {});
          c.end().catch(() => {});
          if (conn?.client === c) conn = null;
          if (stopped) return;
          retry = setTimeout(reconnect, 1000);
          retry.unref();
        };
        // Without a listener a connection's error would be thrown.
        c.on("error", onLost);
        c.on("end", onLost);
        c.on("notification", onNotification);
        try {
          await c.connect();
          await c.query(`LISTEN ${channel}`);
        } catch (e) {
          onLost();
          throw e;
        }
        conn = { client: c, detach };
      };
      const reconnect = () => {
        retry = undefined;
        if (stopped) return;
        connect().then(
          () => fn(),
          () => {
            // The server is still away: try again later (a failed LISTEN has already scheduled it).
            if (stopped || retry) return;
            retry = setTimeout(reconnect, 1000);
            retry.unref();
          },
        );
      };
      try {
        await connect();
      } catch (e) {
        stopped = true;
        clearTimeout(retry);
        throw e;
      }
      return async () => {
        stopped = true;
        clearTimeout(retry);
        const c = conn;
        conn = null;
        if (c) {
          c.detach();
          c.client.on("error", () => {});
          await c.client.end().catch(() => {});
        }
      };
    },
    async close() {
      await pool.end();
    },
  };
}
