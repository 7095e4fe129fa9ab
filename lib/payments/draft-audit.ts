// A draft's steps in the audit log (`draft.<step>.<kind>`), and why a step on a draft was refused,
// in the words the person sees: not found, their own draft, or changed, claimed or decided by
// someone else since they opened it.
import "server-only";
import { type Actor, appendAudit, auditActor } from "../audit/log.ts";
import type { Draft } from "../dashboard-api/wires.ts";
import type { Queryable } from "../db/client.ts";
import { conflict, forbidden, notFound, type RouteError } from "../route-kit/errors.ts";
import { getDraft } from "./drafts.ts";

/** Audits a step of a draft (`draft.<step>.<kind>`) and hands the draft back. */
export async function auditDraft(
  db: Queryable,
  actor: Actor,
  draft: Draft,
  step: string,
  result: string,
  detail: Record<string, unknown>,
): Promise<Draft> {
  await appendAudit(db, {
    ...auditActor(actor, actor.ip),
    action: `draft.${step}.${draft.kind}`,
    target: draft.id,
    result,
    detail,
  });
  return draft;
}

/** Why a step found no draft in the state it needs. */
export async function staleOrMissing(
  db: Queryable,
  id: string,
  actor: Actor,
  verb: string,
): Promise<RouteError> {
  const now = await getDraft(db, id);
  if (!now) return notFound("No such draft.");
  if (verb !== "change" && now.preparedBy.id === actor.id)
    return forbidden(`You prepared this draft; another approver must ${verb} it.`);
  if (now.status === "queued")
    return conflict(
      `This wire was released by ${now.decidedBy?.email ?? "someone else"} and is queued for reprocessing at the bank. Nothing was sent.`,
    );
  if (now.status !== "pending" && now.status !== "releasing")
    return conflict(`This draft was already ${now.status} by ${now.decidedBy?.email ?? "someone else"}.`);
  if (now.status === "releasing")
    return conflict(
      now.decidedBy?.id === actor.id
        ? "You are already releasing this draft (in another window). Nothing more was sent."
        : `This draft is being released by ${now.decidedBy?.email ?? "someone else"}. Nothing more was sent.`,
    );
  return conflict("This draft changed after you opened it. Review it again.");
}
