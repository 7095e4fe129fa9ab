// A user an administrator changes: found from the route's path; after the change, the cached
// session user is forgotten (the change applies at the next request) and the change is audited.

import { type AuditEntry, appendAudit } from "../audit/log.ts";
import type { AdminUser } from "../dashboard-api/index.ts";
import type { Queryable } from "../db/client.ts";
import { notFound } from "../route-kit/errors.ts";
import { forgetCachedUser } from "./session-token.ts";
import { findUserById, toAdminUser, type UserRow } from "./users.ts";

/** The user a management route names in its path (an id its params schema checked): a 404 for none. */
export async function findUserInPath(db: Queryable, id: string): Promise<{ id: string; before: UserRow }> {
  const before = await findUserById(db, id);
  if (!before) throw notFound("No such user.");
  return { id, before };
}

/** Settles a change made to `before`: forgets its cached session, audits it, answers with the user as changed. */
export async function settleUserChange(
  db: Queryable,
  actor: Pick<AuditEntry, "actorId" | "actorEmail" | "ip">,
  action: string,
  change: { before: UserRow; after: UserRow | null; detail: Record<string, unknown> },
): Promise<AdminUser> {
  forgetCachedUser(change.before.id);
  await appendAudit(db, {
    ...actor,
    action,
    target: change.before.email,
    result: "ok",
    detail: change.detail,
  });
  return toAdminUser(change.after ?? change.before);
}
