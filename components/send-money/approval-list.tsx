// Who approved a draft: "1 of 2 approvals: a@x", then each vote that no longer counts struck
// through, with why (its voter was demoted, disabled, reset…), so no one counts it by eye.
import { approvalCountWords, countedApprovals } from "@/lib/approvals/draft-rules.ts";
import type { Draft } from "@/lib/dashboard-api/wires.ts";

export function ApprovalList({ d }: { d: Draft }) {
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
