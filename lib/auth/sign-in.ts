// The sign-in check and its lockout: e-mail, password and (when enrolled) a TOTP code, failures
// counted toward the lockout (10 failures lock an account for 30 minutes), an unknown address
// answered as a known one would be, and a signed-in user's proof of a change under the same lock.
import type { Queryable } from "../db/client.ts";
import type { signInFailures } from "../db/schema.ts";
import { dashboardMetrics } from "../operations/metrics.ts";
import type { SqlRow } from "../server/sql-row.ts";
import { verifyDecoy, verifyPassword } from "./passwords.ts";
import { proveCurrentCode } from "./second-factor.ts";
import { LOCKOUT } from "./session-limits.ts";
import { findUserByEmail, normalizeEmail, type UserRow } from "./users.ts";

export type SignInOutcome =
  | { ok: true; user: UserRow }
  | { ok: false; reason: "invalid" | "disabled" | "totp_required" | "totp_invalid"; user?: UserRow }
  | { ok: false; reason: "locked"; user?: UserRow; minutes: number };

/** Checks e-mail, password and (when enrolled) the TOTP code, counting failures toward the lockout. */
export async function checkSignIn(
  db: Queryable,
  input: { email: string; password: string; totp?: string },
  now = Date.now(),
): Promise<SignInOutcome> {
  const user = await findUserByEmail(db, input.email);
  if (!user) return checkUnknownAddress(db, normalizeEmail(input.email), input.password, now);
  const lockedUntil = user.locked_until ? new Date(user.locked_until).getTime() : 0;
  if (lockedUntil > now)
    return { ok: false, reason: "locked", user, minutes: Math.ceil((lockedUntil - now) / 60_000) };
  const passwordOk = await verifyPassword(user.password_hash, input.password);
  if (!passwordOk) return recordFailure(db, user, "invalid", now);
  if (user.disabled) return { ok: false, reason: "disabled", user };
  if (user.totp_secret) {
    if (!input.totp) return { ok: false, reason: "totp_required", user };
    if (!(await proveCurrentCode(db, user, input.totp))) return recordFailure(db, user, "totp_invalid", now);
  }
  await db.query(
    "UPDATE users SET failed_attempts = 0, locked_until = NULL, last_sign_in_at = $2 WHERE id = $1",
    [user.id, new Date(now)],
  );
  return { ok: true, user };
}

export type ProofOutcome<Why = never> =
  | { ok: true }
  | { ok: false; reason: "wrong"; why?: Why }
  | { ok: false; reason: "locked"; minutes: number };

/**
 * A signed-in user proving a change to their own account by something only they know (the
 * current password, a code from the device in use, or both), under the sign-in's lockout: a
 * locked account is refused before the proof is checked, and a wrong proof counts toward the
 * lock, so that a stolen session cannot guess the password here any faster than at the sign-in
 * page. The check answers true when the proof holds, false or what was wrong with it when not.
 */
export async function checkUnderLockout<Why = never>(
  db: Queryable,
  user: UserRow,
  verify: () => Promise<boolean | Why>,
  now = Date.now(),
): Promise<ProofOutcome<Why>> {
  const lockedUntil = user.locked_until ? new Date(user.locked_until).getTime() : 0;
  if (lockedUntil > now)
    return { ok: false, reason: "locked", minutes: Math.ceil((lockedUntil - now) / 60_000) };
  const verdict = await verify();
  if (verdict === true) {
    if (user.failed_attempts) await db.query("UPDATE users SET failed_attempts = 0 WHERE id = $1", [user.id]);
    return { ok: true };
  }
  const o = await recordFailure(db, user, "invalid", now);
  if (o.ok === false && o.reason === "locked") return { ok: false, reason: "locked", minutes: o.minutes };
  return verdict === false ? { ok: false, reason: "wrong" } : { ok: false, reason: "wrong", why: verdict };
}

async function recordFailure(
  db: Queryable,
  user: UserRow,
  reason: "invalid" | "totp_invalid",
  now: number,
): Promise<SignInOutcome> {
  const rows = await db.query<Pick<UserRow, "failed_attempts" | "locked_until">>(
    `UPDATE users SET
       failed_attempts = CASE WHEN failed_attempts + 1 >= $2 THEN 0 ELSE failed_attempts + 1 END,
       locked_until = CASE WHEN failed_attempts + 1 >= $2 THEN $3::timestamptz ELSE locked_until END
     WHERE id = $1 RETURNING failed_attempts, locked_until`,
    [user.id, LOCKOUT.attempts, new Date(now + LOCKOUT.minutes * 60_000)],
  );
  const lockedUntil = rows[0]?.locked_until ? new Date(rows[0].locked_until).getTime() : 0;
  if (lockedUntil > now) {
    // This failure locked the account (a locked one is refused before its password is checked).
    dashboardMetrics().lockout();
    return { ok: false, reason: "locked", user, minutes: LOCKOUT.minutes };
  }
  return { ok: false, reason, user };
}

/**
 * An address with no account answers as a known one with a wrong password would, in words and in
 * time: the same lock check, an argon2 verification against a decoy hash of the same cost, and the
 * same failure count and lockout, so that neither the answer nor its delay says who has an account.
 */
async function checkUnknownAddress(
  db: Queryable,
  email: string,
  password: string,
  now: number,
): Promise<SignInOutcome> {
  const rows = await db.query<Pick<SqlRow<typeof signInFailures>, "locked_until">>(
    "SELECT locked_until FROM sign_in_failures WHERE email = $1",
    [email],
  );
  const lockedUntil = rows[0]?.locked_until ? new Date(rows[0].locked_until).getTime() : 0;
  if (lockedUntil > now)
    return { ok: false, reason: "locked", minutes: Math.ceil((lockedUntil - now) / 60_000) };
  await verifyDecoy(password);
  const counted = await db.query<Pick<SqlRow<typeof signInFailures>, "locked_until">>(
    `INSERT INTO sign_in_failures AS f (email, failed_attempts, updated_at) VALUES ($1, 1, $4)
     ON CONFLICT (email) DO UPDATE SET
       failed_attempts = CASE WHEN f.failed_attempts + 1 >= $2 THEN 0 ELSE f.failed_attempts + 1 END,
       locked_until = CASE WHEN f.failed_attempts + 1 >= $2 THEN $3::timestamptz ELSE f.locked_until END,
       updated_at = $4
     RETURNING failed_attempts, locked_until`,
    [email, LOCKOUT.attempts, new Date(now + LOCKOUT.minutes * 60_000), new Date(now)],
  );
  // Addresses tried once and long ago are of no use: trim them now and then.
  if (Math.random() < 0.02)
    await db.query(
      "DELETE FROM sign_in_failures WHERE updated_at < $1 AND (locked_until IS NULL OR locked_until < $2)",
      [new Date(now - 24 * 3_600_000), new Date(now)],
    );
  const nowLocked = counted[0]?.locked_until ? new Date(counted[0].locked_until).getTime() : 0;
  if (nowLocked > now) return { ok: false, reason: "locked", minutes: LOCKOUT.minutes };
  return { ok: false, reason: "invalid" };
}
