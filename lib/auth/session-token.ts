// Reading the next-auth session cookie on the server: the signed JWT, checked against the idle
// and absolute limits and against its record in the database (signed out means refused, on every
// instance), then the user as the database has them now (a disabled user or a changed role takes
// effect on the next request, not at the next sign-in).
import { decode, type JWT } from "next-auth/jwt";
import { config, requireAuthSecret } from "../config.ts";
import type { SessionUser } from "../dashboard-api/index.ts";
import { getDashboardDb, type Queryable } from "../db/client.ts";
import { type SessionSettings, sessionSettings } from "./session-limits.ts";
import { sessionRecordOpen } from "./session-store.ts";
import { findUserById, sessionOpen, toSessionUser, type UserRow } from "./users.ts";

export interface SessionClaims extends JWT {
  sub: string;
  /** The session's row in the `sessions` table (lib/auth/session-store.ts). */
  sid: string;
  /** Seconds since the epoch: sign-in, for the 12-hour absolute limit. */
  signedInAt: number;
  /** Seconds since the epoch: last activity the browser reported through a session update. */
  lastActivity: number;
}

export type SessionCheck =
  | { ok: true; claims: SessionClaims }
  | { ok: false; reason: "none" | "invalid" | "idle" | "absolute" | "ended" };

export function sessionCookieName(): string {
  return config().publicUrl?.startsWith("https://")
    ? "__Secure-next-auth.session-token"
    : "next-auth.session-token";
}

export function authSecret(): string {
  return requireAuthSecret();
}

/** Idle or past the absolute limit, judged from the claims alone. */
export function sessionExpiry(
  claims: Pick<SessionClaims, "signedInAt" | "lastActivity">,
  nowSec = Date.now() / 1000,
  s: SessionSettings = sessionSettings(),
): "idle" | "absolute" | null {
  if (!Number.isFinite(claims.signedInAt) || nowSec - claims.signedInAt > s.absoluteSeconds)
    return "absolute";
  if (!Number.isFinite(claims.lastActivity) || nowSec - claims.lastActivity > s.idleSeconds) return "idle";
  return null;
}

// Decrypted cookies, so the hot path skips key derivation and decryption on every request; the
// limits are still checked on each use.
const decoded = new Map<string, JWT | null>();

async function decodeCookie(value: string): Promise<JWT | null> {
  if (decoded.has(value)) return decoded.get(value) ?? null;
  let claims: JWT | null = null;
  try {
    claims = await decode({ token: value, secret: authSecret() });
  } catch {
    claims = null;
  }
  if (decoded.size > 2000) decoded.clear();
  decoded.set(value, claims);
  return claims;
}

/**
 * The session a cookie carries, if it may still be used: signed by us, within its idle and
 * absolute limits, and recorded as open (not signed out). The record is read on every call, so a
 * sign-out on any instance is refused here at once.
 */
export async function checkSessionCookie(
  value: string | undefined,
  nowSec = Date.now() / 1000,
  db?: Queryable,
): Promise<SessionCheck> {
  if (!value) return { ok: false, reason: "none" };
  const claims = await decodeCookie(value);
  if (!claims || typeof claims.sub !== "string") return { ok: false, reason: "invalid" };
  const c = claims as SessionClaims;
  const expired = sessionExpiry(c, nowSec);
  if (expired) return { ok: false, reason: expired };
  if (!(await sessionRecordOpen(db ?? (await getDashboardDb()), c.sid)))
    return { ok: false, reason: "ended" };
  return { ok: true, claims: c };
}

// A short cache: a page load fans out into several API calls that all need the same user row.
const USER_TTL_MS = 1000;
const cache = new Map<string, { at: number; row: UserRow | null }>();

export function forgetCachedUser(id?: string): void {
  if (id) cache.delete(id);
  else cache.clear();
}

/**
 * The signed-in user as stored now; null when the account no longer exists or is disabled, or
 * when the session (signed in at `signedInAt`) was ended by a password change or reset since.
 * `fresh` reads the database even when a cached row is young.
 */
export async function currentUser(
  db: Queryable,
  id: string,
  signedInAt?: number,
  opts: { fresh?: boolean } = {},
): Promise<SessionUser | null> {
  let hit = cache.get(id);
  if (!hit || opts.fresh || Date.now() - hit.at >= USER_TTL_MS) {
    hit = { at: Date.now(), row: await findUserById(db, id) };
    if (cache.size > 5000) cache.clear();
    cache.set(id, hit);
  }
  const { row } = hit;
  if (!row || row.disabled) return null;
  if (signedInAt !== undefined && !sessionOpen(row, signedInAt)) return null;
  return toSessionUser(row);
}
