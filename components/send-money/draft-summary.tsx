// What a draft will pay, as the release and reject dialogs show it, with its beneficiary's recent
// payee changes.

import { ApprovalRows } from "@/components/send-money/approval-list.tsx";
import { RecentPayeeChanges } from "@/components/send-money/payee-change.tsx";
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import { Money } from "@/components/ui/money.tsx";
import {
  approvedBy,
  myApprovalSends,
  myVoteNumber,
  notYetSendingWords,
  ordinalWord,
} from "@/lib/approvals/draft-rules.ts";
import type { Draft } from "@/lib/dashboard-api/wires.ts";
import { centsInWords } from "@/lib/format/amount-words.ts";
import { formatInstant } from "@/lib/format/dates.ts";

export function DraftSummary({ d }: { d: Draft }) {
  const timeZone = useBusinessTimeZone();
  const r = d.request as Record<string, string | number | undefined>;
  const rows: [string, string | undefined][] =
    d.kind === "wire"
      ? [
          ["Beneficiary", `${r.beneficiary_name ?? ""} · account ${r.beneficiary_account_number ?? ""}`],
          [
            "Beneficiary bank",
            [
              r.receiving_bank_routing_id,
              r.receiving_bank_name,
              r.beneficiary_bank_routing_id,
              r.beneficiary_bank_name,
            ]
              .filter(Boolean)
              .join(" · "),
          ],
          ["From account", d.fromAccount],
          ["Message", r.originator_to_beneficiary_info as string | undefined],
        ]
      : [
          ["To SEN account", d.counterparty],
          ["From account", d.fromAccount],
        ];
  return (
    <>
      <RecentPayeeChanges changes={d.payeeChanges ?? []} />
      <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-600">Amount</dt>
        <dd>
          <strong>
            <Money cents={d.amountCents} />
          </strong>
          <span className="block text-slate-600">{centsInWords(d.amountCents)}</span>
        </dd>
        {rows
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="font-medium text-slate-600">{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        <dt className="font-medium text-slate-600">Prepared by</dt>
        <dd>
          {d.preparedBy.email}, {formatInstant(d.preparedAt, timeZone)}
        </dd>
        <ApprovalRows d={d} policy={d.approvalPolicy} />
      </dl>
    </>
  );
}

/**
 * What the next approval of a pending draft does, said before anyone clicks; with the wire system
 * down, a wire goes to the bank's backup log instead of out at once.
 */
export function nextApproval(d: Draft, me: { id: string }, wireSystemDown = false): string {
  if (approvedBy(d, me.id))
    return "You approved it. The next approval, by another approver, sends it to the bank.";
  if (!myApprovalSends(d, me.id)) return notYetSendingWords(d, me.id);
  // A wire system that went down since the last release shows only in the bank's answer: the
  // wire then waits in the backup log, and the dialog says so before the click, not after.
  const sends =
    d.kind !== "wire"
      ? "sends the payment to the bank now"
      : wireSystemDown
        ? "puts the wire in the bank's backup log; it goes out when the wire system is back"
        : "sends the payment to the bank now (should the wire system be down, the wire waits in the bank's backup log and goes out once, when it is back)";
  return d.approvalsRequired > 1
    ? `Your approval is the ${ordinalWord(myVoteNumber(d, me.id))}: it ${sends}.`
    : `Your approval ${sends}.`;
}

/** Why the bank refused a failed draft, in its own words, for the preparer to act on. */
export function bankRefusal(d: Draft): string | null {
  if (d.status !== "failed") return null;
  const a = d.bankAnswer ?? {};
  if (typeof a.error === "string" && a.error) return a.error;
  if (a.payment_status === "Canceled") return "The bank canceled the wire when it replayed its backup log.";
  return null;
}
