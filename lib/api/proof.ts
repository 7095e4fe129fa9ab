// A change to one's own account proven by what only the user knows (the current password, a code
// from the app): the attempt is audited whether or not the proof holds, and a wrong proof refuses
// the request on its field.
import "server-only";
import { type Actor, appendAudit, auditActor } from "../auth/audit.ts";
import type { Queryable } from "../db/client.ts";
import { invalid } from "./errors.ts";

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
