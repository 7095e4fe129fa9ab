// Who approved a payment: "1 of 2 approvals: a@x", then each vote that no longer counts struck
// through, with why (its voter was demoted, disabled, reset…), so no one counts it by eye; and the
// policy that asked for that many. The release dialog of a draft and the decision dialog of an
// incoming wire show their votes through this one component.
import { approvalCountWords, countedApprovals, type VoteCount } from "@/lib/approvals/draft-rules.ts";

/** A payment's votes as this list shows them: each voter's e-mail, and why it is struck if it is. */
export interface ShownVotes extends VoteCount {
  approvals: readonly { id: string; email: string; ineligible?: string }[];
}

export function ApprovalList({ d }: { d: ShownVotes }) {
  const counted = countedApprovals(d);
  const struck = d.approvals.filter((a) => a.ineligible);
  return (
    <>
      {approvalCountWords(d)}
      {counted.length ? `: ${counted.map((a) => a.email).join(", ")}` : ""}
      {struck.map((a) => (
        <span key={a.id} className="block text-xs text-slate-600" data-struck-vote={a.id}>
          <s>{a.email}</s> not counted: {a.ineligible}
        </span>
      ))}
    </>
  );
}

/** The "Approvals" and "Policy" rows of a payment's description list. */
export function ApprovalRows({ d, policy }: { d: ShownVotes; policy?: string | null }) {
  return (
    <>
      <dt className="font-medium text-slate-600">Approvals</dt>
      <dd>
        <ApprovalList d={d} />
      </dd>
      {policy ? (
        <>
          <dt className="font-medium text-slate-600">Policy</dt>
          <dd data-approval-policy>{policy}</dd>
        </>
      ) : null}
    </>
  );
}
