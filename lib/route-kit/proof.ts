// A change to one's own account proven by what only the user knows (the current password, a code
// from the app): the attempt is audited whether or not the proof holds, and a wrong proof refuses
// the request on its field.
import "server-only";
import { type Actor, appendAudit, auditActor } from "../audit/log.ts";
import { checkUnderLockout } from "../auth/sign-in.ts";
import { allowSignInAttempt } from "../auth/throttle.ts";
import type { UserRow } from "../auth/users.ts";
import type { Queryable } from "../db/client.ts";
import { invalid, RouteError } from "./errors.ts";

export interface Refusal {
  field: string;
  /** Under the field. */
  message: string;
  /** The form's alert. */
  summary: string;
  /** In the audit log, after "refused: ". */
  reason: string;
}

/** A code that is not the one the authenticator app shows now. */
export const WRONG_CODE: Refusal = {
  field: "code",
  message: "is not the current code from your app",
  summary: "That code did not match.",
  reason: "wrong code",
};

export async function checkProof(
  db: Queryable,
  actor: Actor,
  action: string,
  proven: boolean,
  refusal: Refusal,
): Promise<void> {
  await appendAudit(db, {
    ...auditActor(actor, actor.ip),
    action,
    target: actor.email,
    result: proven ? "ok" : `refused: ${refusal.reason}`,
  });
  if (!proven) throw invalid([{ field: refusal.field, message: refusal.message }], refusal.summary);
}

/** An address that has used up this minute's sign-in attempts. */
export const rateLimited = () =>
  new RouteError(
    429,
    "rate_limited",
    "Too many attempts from this address. Wait a minute, then try again.",
    undefined,
    {
      "Retry-After": "60",
    },
  );

/**
 * A proof by the password or the code of the device in use (or both), counted as a sign-in's
 * would be: the address's allowance first (429 once used up), then the account's lockout (423
 * while locked; a wrong proof counts toward it). Every try is audited with its result. The check
 * answers true when the proof holds; false refuses with `refusal`, or it answers the refusal that
 * fits (the password's or the code's, where both are asked for).
 */
export async function checkProofUnderLimits(
  db: Queryable,
  actor: Actor,
  user: UserRow,
  action: string,
  refusal: Refusal,
  verify: () => Promise<boolean | Refusal>,
  /** Said after a lockout: what stays as it was. */
  unchanged = "Nothing was changed.",
): Promise<void> {
  const audit = (result: string) =>
    appendAudit(db, { ...auditActor(actor, actor.ip), action, target: actor.email, result });
  // A route's actor always has its address; one without is counted with every other such.
  if (!(await allowSignInAttempt(db, actor.ip ?? "unknown"))) {
    await audit("refused: rate limited");
    throw rateLimited();
  }
  const outcome = await checkUnderLockout(db, user, verify);
  if (outcome.ok) return audit("ok");
  if (outcome.reason === "locked") {
    await audit("refused: locked");
    throw new RouteError(
      423,
      "locked",
      `Too many wrong attempts: your account is locked for ${outcome.minutes} minutes. ${unchanged}`,
    );
  }
  const why = outcome.why ?? refusal;
  await audit(`refused: ${why.reason}`);
  throw invalid([{ field: why.field, message: why.message }], why.summary);
}
