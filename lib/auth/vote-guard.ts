// Where a vote that moves money is cast (a draft's release, an incoming wire's approval or return):
// the voter's credentials must not have been reset, nor the voter invited, in the last 24 hours.
// The voter is read as every counted vote is read when the deciding vote lands (`votersNow`, the
// one place the embargo rule is applied to a voter), so the refusal here and a struck vote there
// cannot disagree; this only answers early, with the until-when, before anything is recorded.

import { votersNow } from "../approvals/facts.ts";
import type { Queryable } from "../db/client.ts";
import { RouteError } from "../route-kit/errors.ts";

/** Why a voter under the embargo cannot vote, and until when, in the dialog's words. */
export function embargoMessage(until: Date): string {
  return `Your account was invited or its credentials were reset less than 24 hours ago: until ${until.toUTCString()} you cannot approve anything that moves money. Another approver can.`;
}

/** Refuses (403 credentials_recent) a vote by a user whose credentials changed in the last 24 hours. */
export async function refuseEmbargoedVoter(db: Queryable, userId: string, now = new Date()): Promise<void> {
  const [voter] = await votersNow(db, [userId], { lock: false, now: now.getTime() });
  if (voter?.credentialEmbargoUntil)
    throw new RouteError(403, "credentials_recent", embargoMessage(new Date(voter.credentialEmbargoUntil)));
}
