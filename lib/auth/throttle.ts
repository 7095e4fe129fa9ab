// Sign-in attempts per client address, counted in the database so every instance shares the count.
import type { Queryable } from "../db/client.ts";
import type { signInThrottle } from "../db/schema.ts";
import type { SqlRow } from "../server/sql-row.ts";
import { clientAddress } from "./client-address.ts";
import { signInRateLimit } from "./session-limits.ts";

/** Counts one attempt; false when the address has used up this minute's allowance. */
export async function allowSignInAttempt(db: Queryable, ip: string, now = Date.now()): Promise<boolean> {
  const window = new Date(Math.floor(now / 60_000) * 60_000);
  const rows = await db.query<Pick<SqlRow<typeof signInThrottle>, "attempts">>(
    `INSERT INTO sign_in_throttle (ip, window_start, attempts) VALUES ($1, $2, 1)
     ON CONFLICT (ip, window_start) DO UPDATE SET attempts = sign_in_throttle.attempts + 1
     RETURNING attempts`,
    [ip, window],
  );
  // Old windows are of no use: trim them now and then.
  if (Math.random() < 0.05)
    await db.query("DELETE FROM sign_in_throttle WHERE window_start < $1", [new Date(now - 3_600_000)]);
  return (rows[0]?.attempts ?? 0) <= signInRateLimit();
}

/** The client address of a request: X-Forwarded-For believed only from trusted proxies (client-address.ts). */
export function clientIp(headers: Headers | Record<string, string | string[] | undefined>): string {
  return clientAddress(headers);
}
