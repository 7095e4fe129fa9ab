// Where a vote that moves money is cast (a draft's release, an incoming wire's approval or return):
// the voter's credentials must not have been reset, nor the voter invited, in the last 24 hours
// (lib/auth/credential-embargo.ts). Read from the database at the moment of the vote.
import { RouteError } from "../api/errors.ts";
import type { Queryable } from "../db/client.ts";
import { credentialEmbargoUntil } from "./credential-embargo.ts";

/** Why a voter under the embargo cannot vote, and until when, in the dialog's words. */
export function embargoMessage(until: Date): string {
  return `Your account was invited or its credentials were reset less than 24 hours ago: until ${until.toUTCString()} you cannot approve anything that moves money. Another approver can.`;
}

/** Refuses (403 credentials_recent) a vote by a user whose credentials changed in the last 24 hours. */
export async function refuseEmbargoedVoter(db: Queryable, userId: string, now = new Date()): Promise<void> {
  const rows = await db.query<{ credentials_changed_at: Date | string | null }>(
    "SELECT credentials_changed_at FROM users WHERE id = $1",
    [userId],
  );
  const until = credentialEmbargoUntil(rows[0]?.credentials_changed_at ?? null, now);
  if (until) throw new RouteError(403, "credentials_recent", embargoMessage(until));
}
