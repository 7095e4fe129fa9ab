// /mail: the e-mail the dashboard has sent the signed-in person (the approval digest), newest
// first, readable in the dashboard whatever the mail server: without DASHBOARD_SMTP_URL this is
// the only place; with one (npm start points it at the bank's sandbox mail box) each message also
// says whether it went out.
import type { Metadata } from "next";
import { Card } from "@/components/ui/card.tsx";
import { EmptyState } from "@/components/ui/empty-state.tsx";
import { pageUser } from "@/lib/auth/session.ts";
import { config } from "@/lib/config.ts";
import { getDashboardDb } from "@/lib/db/client.ts";
import { formatInstant } from "@/lib/format/dates.ts";
import { mailFor } from "@/lib/inbox/digest.ts";

export const metadata: Metadata = { title: "Mail" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const user = await pageUser("/mail");
  const { timeZone, smtpUrl } = config();
  const mail = await mailFor(await getDashboardDb(), user.email);
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Mail</h1>
        <p className="mt-1 text-sm text-slate-600">
          E-mail the dashboard sent you ({user.email}), newest first.{" "}
          {smtpUrl
            ? "Each message also goes out through the mail server (DASHBOARD_SMTP_URL; under npm start, the bank's sandbox mail box)."
            : "No mail server is set up (DASHBOARD_SMTP_URL), so messages are kept here."}
        </p>
      </div>
      {mail.length === 0 ? (
        <Card>
          <EmptyState title="No mail yet">
            When something waits for your approval longer than the administrator's setting, a digest arrives
            here.
          </EmptyState>
        </Card>
      ) : (
        <ul className="flex flex-col gap-4">
          {mail.map((m) => (
            <li key={m.id}>
              <Card aria-labelledby={`mail-${m.id}`} data-mail-kind={m.kind}>
                <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-100 px-5 py-3">
                  <h2 id={`mail-${m.id}`} className="text-base font-semibold text-slate-900">
                    {m.subject}
                  </h2>
                  <p className="text-xs text-slate-600">
                    {formatInstant(m.createdAt, timeZone)}
                    {smtpUrl ? (m.sentAt ? " · sent" : " · not sent yet") : ""}
                  </p>
                </div>
                <p className="px-5 pt-3 text-xs text-slate-600">To: {m.to}</p>
                <pre className="px-5 py-3 font-sans text-sm whitespace-pre-wrap text-slate-800">{m.text}</pre>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
