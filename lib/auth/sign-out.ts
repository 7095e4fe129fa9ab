// Sign-out fails closed (docs/decisions.md, "Sign-out ends the session on the server"). next-auth
// clears the cookie whatever its signOut event does, so a revoke that could not be written would
// end the session in one browser while a copy of the cookie went on working, and its owner, told
// they were signed out, would never know. Here a revoke that cannot be written marks the request:
// the route answers an error and keeps the cookie (the session is still open, and says so), and
// this instance goes on trying to write the revoke until it holds or the session expires.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Queryable } from "../db/client.ts";
import { createLogger } from "../server/log.ts";
import { revokeSessionRecord } from "./session-store.ts";

const log = createLogger("auth");

/** Tries within the sign-out request itself, before it answers an error. */
const ATTEMPTS = 3;
/** Later tries in the background: the first after this, doubling up to the cap. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

const outcome = new AsyncLocalStorage<{ failed: boolean }>();

/** Runs a next-auth request; `failed` says whether a sign-out in it could not revoke its session. */
export async function withSignOutOutcome<T>(fn: () => Promise<T>): Promise<{ result: T; failed: boolean }> {
  const state = { failed: false };
  const result = await outcome.run(state, fn);
  return { result, failed: state.failed };
}

type OpenDb = () => Promise<Queryable>;

async function tryRevoke(db: OpenDb, sid: string): Promise<boolean> {
  try {
    // false: already revoked or never recorded, which is as ended as it gets.
    await revokeSessionRecord(await db(), sid);
    return true;
  } catch (error) {
    log.error("could not revoke a session at sign-out", { error });
    return false;
  }
}

const retrying = new Set<string>();

function retryInBackground(db: OpenDb, sid: string, until: number, delayMs = RETRY_FIRST_MS): void {
  if (Date.now() > until) {
    retrying.delete(sid);
    return;
  }
  retrying.add(sid);
  setTimeout(async () => {
    if (await tryRevoke(db, sid)) {
      retrying.delete(sid);
      log.info("a session whose sign-out failed is now revoked");
    } else retryInBackground(db, sid, until, Math.min(delayMs * 2, RETRY_MAX_MS));
  }, delayMs).unref();
}

/**
 * Revokes the session being signed out. When the revoke cannot be written after a few tries, the
 * sign-out request is marked failed and the revoke is retried in the background until it holds
 * or `expiresAt` passes (the session ends by itself then); false in that case.
 */
export async function revokeAtSignOut(db: OpenDb, sid: string, expiresAt: number): Promise<boolean> {
  for (let i = 0; i < ATTEMPTS; i++) if (await tryRevoke(db, sid)) return true;
  const state = outcome.getStore();
  if (state) state.failed = true;
  // A session with no readable expiry is kept at it for the longest a session may last.
  const until = Number.isFinite(expiresAt) ? expiresAt : Date.now() + 12 * 3_600_000;
  if (!retrying.has(sid)) retryInBackground(db, sid, until);
  return false;
}
