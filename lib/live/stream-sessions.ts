// A live stream outlives the request that opened it, so the session it was opened with is read
// again while it runs: every STREAM_SESSION_CHECK_MS, one query per instance for all of its open
// streams. A stream whose session was signed out (on any instance), has passed its 12 hours, or
// was ended by a password change, a reset or a disabled account, is closed by the next check.

import { sessionOpen } from "../auth/users.ts";
import { getDashboardDb } from "../db/client.ts";
import { createLogger } from "../server/log.ts";

/** At most this long after a sign-out, a stream opened with that session is closed. */
export const STREAM_SESSION_CHECK_MS = 5_000;

const log = createLogger("live");

interface Watched {
  signedInAt: number;
  end: () => void;
}

const watched = new Map<string, Set<Watched>>();
let timer: ReturnType<typeof setInterval> | null = null;

interface Row {
  id: string;
  revoked_at: Date | null;
  expires_at: Date;
  disabled: boolean | null;
  sessions_from: Date | null;
  kept_session_signed_in_at: number | null;
}

async function checkAll(): Promise<void> {
  const sids = [...watched.keys()];
  if (sids.length === 0) return;
  const db = await getDashboardDb();
  const rows = await db.query<Row>(
    `SELECT s.id, s.revoked_at, s.expires_at, u.disabled, u.sessions_from, u.kept_session_signed_in_at
     FROM sessions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id = ANY($1::text[])`,
    [sids],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const now = Date.now();
  for (const sid of sids) {
    const r = byId.get(sid);
    const recordOpen =
      !!r && r.revoked_at === null && new Date(r.expires_at).getTime() > now && r.disabled === false;
    for (const w of watched.get(sid) ?? []) {
      const open =
        recordOpen &&
        sessionOpen(
          {
            sessions_from: r.sessions_from === null ? null : new Date(r.sessions_from),
            kept_session_signed_in_at: r.kept_session_signed_in_at,
          },
          w.signedInAt,
        );
      if (!open) w.end();
    }
  }
}

/** Calls `end` once the session is over; the returned function stops watching (the stream ended). */
export function watchStreamSession(sid: string, signedInAt: number, end: () => void): () => void {
  const w: Watched = { signedInAt, end };
  const set = watched.get(sid) ?? new Set<Watched>();
  watched.set(sid, set);
  set.add(w);
  if (!timer) {
    timer = setInterval(() => {
      checkAll().catch((e) => log.warn("could not check the sessions of live streams", { error: e }));
    }, STREAM_SESSION_CHECK_MS);
    timer.unref?.();
  }
  return () => {
    const s = watched.get(sid);
    s?.delete(w);
    if (s && s.size === 0) watched.delete(sid);
    if (watched.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}
