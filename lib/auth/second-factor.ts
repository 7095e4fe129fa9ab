// A user's TOTP second factor: a code from the enrolled device proven and spent once, a new
// secret kept (sealed) until a code confirms it, turned on, turned off.
import type { Queryable } from "../db/client.ts";
import { seal } from "./secret-box.ts";
import { checkTotp } from "./totp.ts";
import { TOTP_PURPOSE } from "./users.ts";

/**
 * Checks a code from the person's enrolled device and uses it up, in one place for every path that
 * takes one (sign-in, moving or turning off the second factor): true only for the one request that
 * spent its time step. Two requests racing with the same code (a code read over a shoulder and
 * typed at once) cannot both pass: the step is spent by a conditional update, not by a read
 * followed by a write.
 */
export async function proveCurrentCode(
  db: Queryable,
  user: { id: string; totp_secret: string | null; totp_last_step: number | null },
  code: string,
): Promise<boolean> {
  if (!user.totp_secret) return false;
  const step = await checkTotp(user.totp_secret, code, user.totp_last_step);
  if (step === null) return false;
  const spent = await db.query(
    `UPDATE users SET totp_last_step = $2
     WHERE id = $1 AND totp_secret IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < $2)
     RETURNING id`,
    [user.id, step],
  );
  return spent.length === 1;
}

/**
 * Keeps a new secret until a code from it confirms it. Unless `replacing`, only while no second
 * factor is on (checked in the same statement, so a set-up started just before another one is
 * confirmed cannot slip in as a replacement): a pending secret beside a live one was always
 * proven, by the password and a current code (`proveCurrentCode`, which used that code up).
 * False when nothing was stored.
 */
export async function setPendingTotp(
  db: Queryable,
  id: string,
  secret: string,
  replacing = false,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE users SET totp_pending_secret = $2, updated_at = now()
     WHERE id = $1 ${replacing ? "" : "AND totp_secret IS NULL"} RETURNING id`,
    [id, seal(secret, TOTP_PURPOSE)],
  );
  return rows.length === 1;
}

export async function enableTotp(db: Queryable, id: string, secret: string, step: number): Promise<void> {
  await db.query(
    `UPDATE users SET totp_secret = $2, totp_pending_secret = NULL, totp_last_step = $3, updated_at = now()
     WHERE id = $1`,
    [id, seal(secret, TOTP_PURPOSE), step],
  );
}

export async function disableTotp(db: Queryable, id: string): Promise<void> {
  await db.query(
    "UPDATE users SET totp_secret = NULL, totp_pending_secret = NULL, totp_last_step = NULL, updated_at = now() WHERE id = $1",
    [id],
  );
}
