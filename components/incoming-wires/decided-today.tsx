import { memo } from "react";
import { Badge, type Tone } from "@/components/ui/badge.tsx";
import { Card, CardHeader } from "@/components/ui/card.tsx";
import { Money } from "@/components/ui/money.tsx";
import { Table, Td, Th } from "@/components/ui/table.tsx";
import type { DecidedWire } from "@/lib/dashboard-api/index.ts";

const ACTION_NAMES = { approve: "Approved", cancel: "Canceled", return: "Returned" } as const;

function outcome(d: DecidedWire): { text: string; tone: Tone } {
  if (d.state === "queued") return { text: "Queued for reprocessing", tone: "brand" };
  if (d.state === "unconfirmed" || d.state === "sending")
    return { text: "Waiting for the bank", tone: "warning" };
  const status = d.bankStatus ?? "Sent";
  return {
    text: status,
    tone: status === "Complete" ? "success" : status === "Canceled" ? "neutral" : "brand",
  };
}

/** Who decided what today, newest first, with each wire's status at the bank as last read. */
export const DecidedToday = memo(function DecidedToday({ decided }: { decided: DecidedWire[] }) {
  return (
    <Card aria-labelledby="decided-heading">
      <CardHeader
        id="decided-heading"
        title="Decided today"
        description={decided.length ? `${decided.length} decisions` : "No decisions yet today."}
      />
      {decided.length ? (
        <div className="px-2 pb-3">
          <Table
            caption="Wires decided today, newest first"
            captionHidden
            scrollable
            className="min-w-[48rem]"
          >
            <thead>
              <tr>
                <Th>Time</Th>
                <Th className="text-right">Amount</Th>
                <Th>Originator</Th>
                <Th>Decision</Th>
                <Th>Decided by</Th>
                <Th>At the bank</Th>
              </tr>
            </thead>
            <tbody>
              {decided.map((d) => {
                const o = outcome(d);
                return (
                  <tr key={d.paymentId} data-payment-id={d.paymentId}>
                    <Td className="whitespace-nowrap tabular-nums">
                      {new Date(d.decidedAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}
                    </Td>
                    <Td className="text-right whitespace-nowrap">
                      <Money cents={d.amountCents} />
                    </Td>
                    <Td>
                      <span className="block">{d.originatorName}</span>
                      <span className="block font-mono text-xs text-slate-600">{d.paymentId}</span>
                    </Td>
                    <Td>
                      {ACTION_NAMES[d.action]}
                      {d.channel === "backup" ? (
                        <span className="block text-xs text-slate-600">through the backup log</span>
                      ) : null}
                    </Td>
                    <Td className="break-words">{d.decidedBy.join(" and ")}</Td>
                    <Td>
                      <Badge tone={o.tone}>{o.text}</Badge>
                    </Td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        </div>
      ) : null}
    </Card>
  );
});
