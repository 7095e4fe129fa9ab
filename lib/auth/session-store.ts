// The server's record of each session: the cookie stays a signed, encrypted JWT, but it names a
// row (its `sid`) in the dashboard database, which every instance reads. Sign-out revokes the row,
// so a copied cookie is refused everywhere at once, not only cleared from one browser.
// (next-auth writes a fresh `jti` into the cookie each time it re-issues it, so the session's
// own id travels under another name.)
import { randomBytes } from "node:crypto";
import type { Queryable } from "../db/client.ts";
import type { sessions } from "../db/schema.ts";
import type { SqlRow } from "../server/sql-row.ts";

/** Records a new session of the user, open until `expiresAt`; its id for the cookie. */
export async function openSessionRecord(db: Queryable, userId: string, expiresAt: Date): Promise<string> {
  const sid = randomBytes(18).toString("base64url");
  await db.query("INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, $3)", [
    sid,
    userId,
    expiresAt,
  ]);
  // Rows past their expiry decide nothing (a missing row is refused as a revoked one is): trim them now and then.
  if (Math.random() < 0.05) await db.query("DELETE FROM sessions WHERE expires_at < now()");
  return sid;
}

/** Ends the session on every instance; false when there was no open session of that id. */
export async function revokeSessionRecord(db: Queryable, sid: string): Promise<boolean> {
  const rows = await db.query(
    "UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id",
    [sid],
  );
  return rows.length === 1;
}

/** Whether the session is recorded, not revoked and not past its expiry: one primary-key lookup. */
export async function sessionRecordOpen(db: Queryable, sid: unknown): Promise<boolean> {
  if (typeof sid !== "string" || sid.length === 0 || sid.length > 64) return false;
  const rows = await db.query<Pick<SqlRow<typeof sessions>, "revoked_at" | "expires_at">>(
    "SELECT revoked_at, expires_at FROM sessions WHERE id = $1",
    [sid],
  );
  const row = rows[0];
  return !!row && row.revoked_at === null && new Date(row.expires_at).getTime() > Date.now();
}
