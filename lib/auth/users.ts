// Dashboard users: creation, look-up, role and status changes, and the sign-in check with
// lockout (10 failures lock an account for 30 minutes) and the optional TOTP second factor.
import { randomUUID } from "node:crypto";
import type { AdminUser, SessionUser } from "../dashboard-api/index.ts";
import type { Queryable } from "../db/client.ts";
import type { signInFailures, users } from "../db/schema.ts";
import { dashboardMetrics } from "../operations/metrics.ts";
import { createLogger } from "../server/log.ts";
import type { SqlRow } from "../server/sql-row.ts";
import { credentialEmbargoUntil } from "./credential-embargo.ts";
import { hashPassword, verifyDecoy, verifyPassword } from "./passwords.ts";
import { isRole, type Role } from "./permissions.ts";
import { open, seal } from "./secret-box.ts";
import { LOCKOUT } from "./session-limits.ts";
import { checkTotp } from "./totp.ts";

/** A users row as SELECT * returns it. */
export type UserRow = SqlRow<typeof users>;

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export function toSessionUser(u: UserRow): SessionUser {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: isRole(u.role) ? u.role : "viewer",
    totpEnabled: !!u.totp_secret,
    resetPending: !!u.password_must_change,
    votesEmbargoedUntil: credentialEmbargoUntil(u.credentials_changed_at, Date.now())?.toISOString() ?? null,
  };
}

export function toAdminUser(u: UserRow, now = Date.now()): AdminUser {
  return {
    ...toSessionUser(u),
    disabled: u.disabled,
    locked: !!u.locked_until && new Date(u.locked_until).getTime() > now,
    lastSignInAt: iso(u.last_sign_in_at),
    createdAt: iso(u.created_at) as string,
  };
}

/**
 * Whether a session signed in at `signedInAt` (seconds) is still open for this user: not ended
 * by a password change or reset since, or the session that made the change.
 */
export function sessionOpen(
  u: Pick<UserRow, "sessions_from" | "kept_session_signed_in_at">,
  signedInAt: number,
) {
  if (u.sessions_from === null) return true;
  if (u.kept_session_signed_in_at === signedInAt) return true;
  return signedInAt >= Math.floor(new Date(u.sessions_from).getTime() / 1000);
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

// TOTP seeds are stored sealed (secret-box.ts) and opened as rows are read.
const TOTP_PURPOSE = "totp";
const log = createLogger("users");

function openTotp(stored: string | null, userId: string): string | null {
  if (stored === null) return null;
  try {
    return open(stored, TOTP_PURPOSE);
  } catch {
    // The key changed (DASHBOARD_SECRETS_KEY or NEXTAUTH_SECRET): keep the sealed text, which no
    // code matches, so the second factor fails closed rather than quietly switching off.
    log.error("a TOTP secret cannot be opened with the current key", { userId });
    return stored;
  }
}

function readRow(row: UserRow | undefined): UserRow | null {
  if (!row) return null;
  return {
    ...row,
    totp_secret: openTotp(row.totp_secret, row.id),
    totp_pending_secret: openTotp(row.totp_pending_secret, row.id),
  };
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const rows = await db.query<UserRow>("SELECT * FROM users WHERE email = $1", [normalizeEmail(email)]);
  return readRow(rows[0]);
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  const rows = await db.query<UserRow>("SELECT * FROM users WHERE id = $1", [id]);
  return readRow(rows[0]);
}

export async function listUsers(db: Queryable): Promise<UserRow[]> {
  return (await db.query<UserRow>("SELECT * FROM users ORDER BY email")).map((r) => readRow(r) as UserRow);
}

export class EmailTakenError extends Error {}

/**
 * A new user. `mustChange`: the password was set by someone else (an administrator), so it is
 * temporary and its user chooses their own before anything else.
 */
export async function createUser(
  db: Queryable,
  u: {
    email: string;
    name: string;
    role: Role;
    /** A password (the start script's demo users, tests), or a hash nobody can sign in with. */
    password?: string;
    passwordHash?: string;
    mustChange?: boolean;
    /** Invited now: the invitation counts as a credential event (lib/auth/credential-embargo.ts). */
    invited?: boolean;
  },
): Promise<UserRow> {
  const hash = u.passwordHash ?? (await hashPassword(u.password ?? ""));
  const rows = await db.query<UserRow>(
    `INSERT INTO users (id, email, name, role, password_hash, password_must_change, credentials_changed_at)
     VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7 THEN now() END)
     ON CONFLICT (email) DO NOTHING RETURNING *`,
    [
      randomUUID(),
      normalizeEmail(u.email),
      u.name.trim(),
      u.role,
      hash,
      u.mustChange ?? false,
      u.invited ?? false,
    ],
  );
  if (!rows[0]) throw new EmailTakenError(`A user with the e-mail ${normalizeEmail(u.email)} already exists`);
  return rows[0];
}

export async function updateUser(
  db: Queryable,
  id: string,
  change: { role?: Role; disabled?: boolean; name?: string },
): Promise<UserRow | null> {
  const rows = await db.query<UserRow>(
    `UPDATE users SET role = COALESCE($2, role), disabled = COALESCE($3, disabled), name = COALESCE($4, name),
       updated_at = now() WHERE id = $1 RETURNING *`,
    [id, change.role ?? null, change.disabled ?? null, change.name ?? null],
  );
  // A disabled account's sessions end for good: enabling it again does not bring them back.
  if (rows[0] && change.disabled === true) await endEverySession(db, id);
  return readRow(rows[0]);
}

/** A session that goes on through a change its own user made: the cookie's record and sign-in second. */
export interface KeptSession {
  sid: string;
  signedInAt: number;
}

/**
 * Ends every session of the user: the one home of the rule, for a reset, a link used, a password
 * change and a disabling. Sessions signed in before `now`'s second are ended by `sessions_from`
 * (every instance reads it with the user); their records are revoked too, which also ends one
 * signed in within that same second. `keep`: the session that made the change goes on.
 */
export async function endEverySession(
  q: Queryable,
  userId: string,
  o: { now?: Date; keep?: KeptSession | null } = {},
): Promise<void> {
  const now = o.now ?? new Date();
  await q.query("UPDATE users SET sessions_from = $2, kept_session_signed_in_at = $3 WHERE id = $1", [
    userId,
    now,
    o.keep?.signedInAt ?? null,
  ]);
  await q.query(
    "UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND id IS DISTINCT FROM $3",
    [userId, now, o.keep?.sid ?? null],
  );
}

/**
 * Sets a password the user chose (or the start script's demo password): nothing left to change.
 * Every session ends, but for the one that changed it (`keep`), which goes on.
 */
export async function setUserPassword(
  db: Queryable,
  id: string,
  password: string,
  keep: KeptSession | null = null,
): Promise<void> {
  const now = new Date();
  await db.query(
    "UPDATE users SET password_hash = $2, password_must_change = false, updated_at = $3 WHERE id = $1",
    [id, await hashPassword(password), now],
  );
  await endEverySession(db, id, { now, keep });
}

/** Lifts a lockout after failed sign-ins at once, and forgets the failures counted so far. */
export async function unlockUser(db: Queryable, id: string): Promise<UserRow | null> {
  const rows = await db.query<UserRow>(
    `UPDATE users SET failed_attempts = 0, locked_until = NULL, updated_at = now() WHERE id = $1 RETURNING *`,
    [id],
  );
  return readRow(rows[0]);
}

// Sign-in ---------------------------------------------------------------------------------

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

// TOTP enrolment --------------------------------------------------------------------------

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
