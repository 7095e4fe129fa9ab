// The bank's clock: real time plus an offset that the sandbox can move forward
// (POST /sandbox/clock), kept in the database so that every instance and restart agrees.
import { businessDayFormatter } from "../lib/bank-api/dates.ts";
import type { SqlRow } from "../lib/server/sql-row.ts";
import type { Queryable } from "./db/client.ts";
import type { bankSettings } from "./db/schema.ts";

export interface Clock {
  now(): Date;
  /** Business date (YYYY-MM-DD) of an instant in the bank's time zone. */
  businessDate(at?: Date): string;
  advance(seconds: number): Promise<void>;
  reload(): Promise<void>;
  readonly timeZone: string;
}

export async function createClock(db: Queryable, timeZone: string): Promise<Clock> {
  const businessDay = businessDayFormatter(timeZone);
  let offsetMs = 0;
  const load = async () => {
    const rows = await db.query<Pick<SqlRow<typeof bankSettings>, "value">>(
      "SELECT value FROM bank_settings WHERE key = 'clock_offset_ms'",
    );
    offsetMs = rows.length ? Number(rows[0].value) : 0;
  };
  await load();
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
  };
  return clock;
}
