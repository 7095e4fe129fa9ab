"use client";
// The header's notifications: a button with the unread count that opens a panel of recent balance
// changes (old and new balance) and the alerts they fired, read/unread per user. A disclosure,
// not a modal: Escape or a click elsewhere closes it and focus goes back to the button.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { cn } from "@/components/ui/cn.ts";
import { Icon } from "@/components/ui/icon.tsx";
import { accountsQuery } from "@/hooks/use-account-queries.ts";
import { useDisclosure } from "@/hooks/use-disclosure.ts";
import { formatUsd } from "@/lib/bank-api/money.ts";
import type {
  MarkReadResponseSchema,
  NotificationItem,
  NotificationsResponseSchema,
} from "@/lib/dashboard-api/alerts.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import { queryKeys } from "@/lib/dashboard-api/query-keys.ts";

const TIME = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
});

export function NotificationsPanel() {
  const { open, buttonProps, panelProps } = useDisclosure<HTMLElement>({ lightDismiss: true });
  const queryClient = useQueryClient();
  const accounts = useQuery(accountsQuery());
  const accountNames = new Map((accounts.data?.accounts ?? []).map((a) => [a.accountNumber, a.name]));
  const list = useQuery({
    queryKey: queryKeys.notifications(),
    queryFn: ({ signal }) =>
      apiFetch<typeof NotificationsResponseSchema>("/api/notifications?limit=30", { signal }),
  });
  const mark = useMutation({
    mutationFn: (body: { seq: number } | { all: true }) =>
      apiFetch<typeof MarkReadResponseSchema>("/api/notifications", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications() }),
  });

  const unread = list.data?.unread ?? 0;
  const items = list.data?.items ?? [];
  return (
    <div className="relative">
      <button
        {...buttonProps}
        className="relative flex items-center gap-1.5 rounded-md px-2 py-2 text-sm font-medium text-brand-100 hover:bg-white/10 hover:text-white"
      >
        <Icon className="size-5" round>
          <path d="M6 8a6 6 0 1 1 12 0c0 7 3 8 3 8H3s3-1 3-8M10 20a2 2 0 0 0 4 0" />
        </Icon>
        <span className="sr-only sm:not-sr-only">Notifications</span>
        {unread > 0 ? (
          <span className="rounded-full bg-amber-400 px-1.5 text-xs font-semibold text-slate-900">
            {unread > 99 ? "99+" : unread}
            <span className="sr-only"> unread</span>
          </span>
        ) : null}
      </button>
      {open ? (
        <section
          {...panelProps}
          aria-label="Notifications"
          className="absolute right-0 z-40 mt-2 w-[min(24rem,calc(100vw-2rem))] rounded-xl border border-slate-200 bg-white text-slate-900 shadow-xl"
        >
          <div className="flex items-center justify-between gap-2 border-b border-slate-100 px-4 py-3">
            <h2 className="text-sm font-semibold">Balance changes and alerts</h2>
            <button
              type="button"
              disabled={unread === 0 || mark.isPending}
              onClick={() => mark.mutate({ all: true })}
              className="rounded px-2 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50 disabled:text-slate-500"
            >
              Mark all read
            </button>
          </div>
          {list.isError ? (
            <p className="px-4 py-6 text-sm text-slate-700">Notifications could not be loaded.</p>
          ) : items.length === 0 ? (
            <p className="px-4 py-6 text-sm text-slate-700">
              {list.isPending ? "Loading…" : "No balance changes yet."}
            </p>
          ) : (
            <ul className="max-h-[min(28rem,70vh)] divide-y divide-slate-100 overflow-y-auto">
              {items.map((n) => (
                <NotificationRow
                  key={n.seq}
                  n={n}
                  name={accountNames.get(n.accountNumber)}
                  onRead={() => mark.mutate({ seq: n.seq })}
                />
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </div>
  );
}

function NotificationRow({
  n,
  name,
  onRead,
}: {
  n: NotificationItem;
  /** The account's name, beside its number. */
  name?: string;
  onRead: () => void;
}) {
  const change = n.availableCents - n.previousCents;
  return (
    <li className={cn("flex gap-3 px-4 py-3", n.read ? "bg-white" : "bg-brand-50/60")} data-seq={n.seq}>
      <span
        aria-hidden="true"
        className={cn("mt-1.5 size-2 shrink-0 rounded-full", n.read ? "bg-transparent" : "bg-brand-600")}
      />
      <div className="min-w-0 flex-1 text-sm">
        {n.alerts.map((a) => (
          <p key={a.id} className="font-semibold text-amber-800">
            Alert: {a.kind === "below" ? "fell below" : "rose above"}{" "}
            <span className="whitespace-nowrap">{formatUsd(a.thresholdCents)}</span>
          </p>
        ))}
        <p className="text-slate-900">
          <span className="font-medium">
            {name ? `${name} · ${n.accountNumber}` : `Account ${n.accountNumber}`}
          </span>{" "}
          <span className={cn("whitespace-nowrap", change < 0 ? "text-rose-700" : "text-emerald-800")}>
            {change < 0 ? "−" : "+"}
            {formatUsd(Math.abs(change))}
          </span>
        </p>
        <p className="text-slate-700">
          {formatUsd(n.previousCents)} → {formatUsd(n.availableCents)} available
        </p>
        <p className="text-xs text-slate-600">
          <time dateTime={n.at}>{TIME.format(new Date(n.at))}</time>
          {n.read ? <span className="sr-only">, read</span> : <span className="sr-only">, unread</span>}
        </p>
      </div>
      {n.read ? null : (
        <button
          type="button"
          onClick={onRead}
          className="self-start rounded px-2 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50"
        >
          Mark read
        </button>
      )}
    </li>
  );
}
