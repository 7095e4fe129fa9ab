// Dashboard users: creation, look-up, role, status and password changes, unlocking, and the rows
// as the session and the administrator pages see them. The sign-in check and its lockout are in
// sign-in.ts, the TOTP second factor in second-factor.ts.
import { randomUUID } from "node:crypto";
import type { AdminUser, SessionUser } from "../dashboard-api/index.ts";
import type { Queryable } from "../db/client.ts";
import type { users } from "../db/schema.ts";
import { createLogger } from "../server/log.ts";
import type { SqlRow } from "../server/sql-row.ts";
import { credentialEmbargoUntil } from "./credential-embargo.ts";
import { hashPassword } from "./passwords.ts";
import { isRole, type Role } from "./permissions.ts";
import { open } from "./secret-box.ts";

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
export const TOTP_PURPOSE = "totp";
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
