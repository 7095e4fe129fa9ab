"use client";
// The inbox's notices of what did not happen: scheduled payments that did not go and statement
// deliveries given up, told here as by e-mail, each with a link to the page where to act.
import Link from "next/link";
import { Notice, NoticeCard } from "@/components/ui/notice-card.tsx";
import type { ScheduleNotice, StatementNotice } from "@/lib/dashboard-api/inbox.ts";
import { formatUsd } from "@/lib/format/money.ts";

/** Scheduled payments that did not go: told here as by e-mail; the Scheduled page is where to act. */
export function ScheduleNotices({ notices }: { notices: ScheduleNotice[] }) {
  return (
    <NoticeCard
      id="schedule-notices-heading"
      title="Scheduled payments that did not go"
      description="Each series goes on with its next payment unless it is paused on the Scheduled page."
    >
      {notices.map((n) => (
        <Notice key={n.key} tone="amber">
          <span className="font-medium">{n.name}</span>, {formatUsd(n.amountCents)} from {n.fromAccount} to{" "}
          {n.counterparty}, due {n.day}: not sent, {n.reason}.{" "}
          <Link className="text-brand-700 underline" href="/scheduled">
            Open Scheduled
          </Link>
        </Notice>
      ))}
    </NoticeCard>
  );
}

/** Statement deliveries given up: told here as by e-mail; "Retry now" is on the Statements page. */
export function StatementNotices({ notices }: { notices: StatementNotice[] }) {
  return (
    <NoticeCard
      id="statement-notices-heading"
      title="Statements that were not delivered"
      description="Each stays here until an administrator sends it again with Retry now on the Statements page."
    >
      {notices.map((n) => (
        <Notice key={n.key} tone="amber">
          <span className="font-medium">{n.name}</span>, BAI2 of {n.accounts.join(", ")} (
          {n.fromDay === n.toDay ? n.toDay : `${n.fromDay} to ${n.toDay}`}) due at 07:00 on {n.businessDay}:
          not delivered after {n.attempts} attempts, {n.reason}.{" "}
          {n.laterDeliveredDay ? (
            <span data-later-delivered={n.laterDeliveredDay}>
              Delivery works again ({n.laterDeliveredDay} was delivered), but this day was never sent.{" "}
            </span>
          ) : null}
          <Link className="text-brand-700 underline" href="/statements">
            Open Statements
          </Link>
        </Notice>
      ))}
    </NoticeCard>
  );
}
