// The bank's clock: real time plus an offset that the sandbox can move forward
// (POST /sandbox/clock), kept in the database so that every instance and restart agrees. On
// PostgreSQL other instances may move it at any moment: each request reads it again before it
// runs (sync), so a move is seen by every instance from the first request after the call that
// made it returned; background work reads it once a second.
import { businessDayFormatter } from "../lib/bank-api/dates.ts";
import type { SqlRow } from "../lib/server/sql-row.ts";
import type { HotPath, Queryable } from "./db/client.ts";
import type { bankSettings } from "./db/schema.ts";

export interface Clock {
  now(): Date;
  /** Business date (YYYY-MM-DD) of an instant in the bank's time zone. */
  businessDate(at?: Date): string;
  advance(seconds: number): Promise<void>;
  reload(): Promise<void>;
  /**
   * Reads the offset again when other instances may have moved it (a read that starts after this
   * call); callers arriving together share one read. Nothing to do when this process is the
   * database's only user (PGlite).
   */
  sync(): Promise<void>;
  readonly timeZone: string;
}

const READ_OFFSET = "SELECT value FROM bank_settings WHERE key = 'clock_offset_ms'";

export async function createClock(
  db: Queryable & HotPath,
  timeZone: string,
  opts: { shared: boolean } = { shared: false },
): Promise<Clock> {
  const businessDay = businessDayFormatter(timeZone);
  let offsetMs = 0;
  const load = async () => {
    const rows = await db.prepared<Pick<SqlRow<typeof bankSettings>, "value">>(
      "clock_offset",
      READ_OFFSET,
      [],
    );
    offsetMs = rows.length ? Number(rows[0].value) : 0;
  };
  await load();
  let reading: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  function sync(): Promise<void> {
    if (!opts.shared) return Promise.resolve();
    if (!reading) {
      reading = load().finally(() => {
        reading = null;
      });
      return reading;
    }
    // The read under way may have started before a move that returned just before this call:
    // wait for the next one, shared by everyone arriving meanwhile.
    next ??= reading
      .catch(() => {})
      .then(() => {
        next = null;
        return sync();
      });
    return next;
  }
  const clock: Clock = {
    timeZone,
    now: () => new Date(Date.now() + offsetMs),
    businessDate: (at) => businessDay(at ?? clock.now()),
    async advance(seconds) {
      const rows = await db.query<Pick<SqlRow<typeof bankSettings>, "value">>(
        `INSERT INTO bank_settings (key, value) VALUES ('clock_offset_ms', $1)
         ON CONFLICT (key) DO UPDATE SET value = (bank_settings.value::bigint + $1::bigint)::text
         RETURNING value`,
        [String(Math.round(seconds * 1000))],
      );
      offsetMs = Number(rows[0].value);
    },
    reload: load,
    sync,
  };
  return clock;
}
