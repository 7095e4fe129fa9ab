import { memo } from "react";
import { CardTable } from "@/components/incoming-wires/card-table.tsx";
import { useBusinessTimeZone } from "@/components/session/business-time-zone.tsx";
import { Badge, type Tone } from "@/components/ui/badge.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Money } from "@/components/ui/money.tsx";
import { Td } from "@/components/ui/table.tsx";
import type { DecidedWire } from "@/lib/dashboard-api/index.ts";
import { countOf, paymentStatusWords } from "@/lib/format/status-words.ts";

const DECIDED_HEADERS = [
  { label: "Time" },
  { label: "Amount", right: true },
  { label: "Originator" },
  { label: "Decision" },
  { label: "Decided by" },
  { label: "At the bank" },
];

const ACTION_NAMES = { approve: "Approved", cancel: "Canceled", return: "Returned" } as const;

function outcome(d: DecidedWire): { text: string; tone: Tone } {
  if (d.state === "queued") return { text: "Queued for reprocessing", tone: "brand" };
  if (d.state === "unconfirmed" || d.state === "sending")
    return { text: "Waiting for the bank", tone: "warning" };
  if (!d.bankStatus) return { text: "Sent", tone: "brand" };
  const { word, tone } = paymentStatusWords(d.bankStatus, "Incoming");
  return { text: word, tone };
}

/** Who decided what today, newest first, with each wire's status at the bank as last read. */
export const DecidedToday = memo(function DecidedToday({ decided }: { decided: DecidedWire[] }) {
  // The business day's clock, as every other time the dashboard shows.
  const timeZone = useBusinessTimeZone();
  return (
    <Card aria-labelledby="decided-heading">
      <CardHeader
        id="decided-heading"
        title="Decided today"
        description={decided.length ? countOf(decided.length, "decision") : "No decisions yet today."}
      />
      {decided.length ? (
        <CardTable
          caption="Wires decided today, newest first"
          headers={DECIDED_HEADERS}
          className="stack-on-phone sm:min-w-[48rem]"
        >
          {decided.map((d) => {
            const o = outcome(d);
            return (
              <tr key={d.paymentId} data-payment-id={d.paymentId}>
                <Td data-label="Time" className="whitespace-nowrap tabular-nums">
                  {new Date(d.decidedAt).toLocaleTimeString("en-US", {
                    hour: "2-digit",
                    minute: "2-digit",
                    timeZone,
                  })}
                </Td>
                <Td data-label="Amount" className="whitespace-nowrap sm:text-right">
                  <Money cents={d.amountCents} />
                </Td>
                <Td data-label="Originator">
                  <span className="block">{d.originatorName}</span>
                  <span className="block font-mono text-xs text-slate-600">{d.paymentId}</span>
                </Td>
                <Td data-label="Decision">
                  {ACTION_NAMES[d.action]}
                  {d.channel === "backup" ? (
                    <span className="block text-xs text-slate-600">through the backup log</span>
                  ) : null}
                </Td>
                <Td data-label="Decided by" className="break-words">
                  {d.decidedBy.join(" and ")}
                </Td>
                <Td data-label="At the bank">
                  <Badge tone={o.tone}>{o.text}</Badge>
                </Td>
              </tr>
            );
          })}
        </CardTable>
      ) : null}
    </Card>
  );
});
