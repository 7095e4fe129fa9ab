"use client";
// Changes that weaken a control and wait for a second administrator: who asked, when, what (old →
// new), until when. Another administrator approves or rejects; the author may only withdraw.
import { ActionMessageBox } from "@/components/admin/action-message.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ActionsTh, Table, Td, Th } from "@/components/ui/table.tsx";
import { useAdminAction } from "@/hooks/use-admin-action.ts";
import type { AdminChange, AdminChangeDecisionResponse } from "@/lib/dashboard-api/admin-changes.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";

const when = (iso: string) => (
  <time dateTime={iso}>
    {new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" })}
  </time>
);

type Step = "approve" | "reject" | "withdraw";
const STEP_LABELS: Record<Step, string> = { approve: "Approve", reject: "Reject", withdraw: "Withdraw" };

export function PendingChanges({
  changes,
  currentUserId,
  caption,
  onDecided,
}: {
  changes: AdminChange[];
  currentUserId: string;
  caption: string;
  /** Reads the page's lists again after a decision. */
  onDecided: () => Promise<void> | void;
}) {
  const { busy, msg, act } = useAdminAction(onDecided);

  const decide = (c: AdminChange, step: Step) =>
    act(async () => {
      (await apiFetch(`/api/admin/changes/${c.id}/${step}`, {
        method: "POST",
        cache: "no-store",
      })) as AdminChangeDecisionResponse;
      const done = { approve: "Approved and in force", reject: "Rejected", withdraw: "Withdrawn" }[step];
      return { kind: "ok", text: `${done}: ${c.summary}.` };
    });

  /** A step's button; its hidden words name the change, as a screen reader lists the buttons alone. */
  const button = (c: AdminChange, step: Step) => (
    <Button
      size="sm"
      variant={step === "approve" ? "primary" : "secondary"}
      disabled={busy}
      onClick={() => decide(c, step)}
    >
      {STEP_LABELS[step]}
      <span className="sr-only"> {c.summary}</span>
    </Button>
  );

  return (
    <div className="space-y-3">
      <ActionMessageBox msg={msg} />
      {changes.length === 0 ? (
        <p className="text-sm text-slate-600">No change is waiting for a second administrator.</p>
      ) : (
        <Table caption={caption} className="stack-on-phone">
          <thead>
            <tr>
              <Th>Change (old → new)</Th>
              <Th>Asked by</Th>
              <Th>Asked</Th>
              <Th>Lapses</Th>
              <ActionsTh />
            </tr>
          </thead>
          <tbody>
            {changes.map((c) => {
              const own = c.requestedBy.id === currentUserId;
              const aboutMe = c.kind !== "setting" && c.target === currentUserId;
              return (
                <tr key={c.id}>
                  <Td data-label="Change">
                    <span className="font-medium text-slate-900">{c.summary}</span>
                    {c.credentialHistory ? <CredentialHistory change={c} /> : null}
                  </Td>
                  <Td data-label="Asked by" className="break-all">
                    {c.requestedBy.email}
                  </Td>
                  <Td data-label="Asked">{when(c.requestedAt)}</Td>
                  <Td data-label="Lapses">{when(c.expiresAt)}</Td>
                  <Td data-label="Actions" className="sm:text-right">
                    <div className="flex flex-wrap gap-2 sm:justify-end">
                      {own ? (
                        <>
                          <span className="self-center text-slate-600">Waits for another administrator</span>
                          {button(c, "withdraw")}
                        </>
                      ) : (
                        <>
                          {aboutMe ? (
                            <span className="self-center text-slate-600">About your account</span>
                          ) : (
                            button(c, "approve")
                          )}
                          {button(c, "reject")}
                        </>
                      )}
                    </div>
                  </Td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
    </div>
  );
}

/** What a one-time link was for, as its history line says it. */
const LINK_PURPOSE_WORDS: Record<string, string> = {
  invite: "invitation",
  reset: "password reset",
  totp_removal: "removing the second factor",
};

/** One credential event in words: "One-time link e-mailed (password reset)". */
export function credentialEventWords(e: { action: string; detail: Record<string, unknown> | null }): string {
  const words = CREDENTIAL_WORDS[e.action] ?? e.action;
  const purpose = typeof e.detail?.purpose === "string" ? LINK_PURPOSE_WORDS[e.detail.purpose] : undefined;
  return purpose ? `${words} (${purpose})` : words;
}

export const CREDENTIAL_WORDS: Record<string, string> = {
  "user.create": "Invited",
  "user.password_reset": "Password reset",
  "user.unlock": "Unlocked",
  "credential_link.issue": "One-time link e-mailed",
  "credential_link.use": "One-time link used",
  "password.change": "Password changed by the user",
  "totp.enrol_start": "Two-step set-up started",
  "totp.enable": "Two-step sign-in turned on",
  "totp.replace": "Two-step device replaced",
  "totp.replace_start": "Two-step replacement started",
  "totp.disable": "Two-step sign-in turned off",
};

/**
 * What happened to the account's credentials and second factor in the last 30 days, beside a role
 * change or a re-enabling: a reset just before a raise is the pattern a second administrator must see.
 */
function CredentialHistory({ change }: { change: AdminChange }) {
  const events = change.credentialHistory ?? [];
  return (
    <div className="mt-2 text-sm">
      <p className={events.length ? "font-medium text-amber-800" : "text-slate-600"}>
        {events.length
          ? `Credentials and second factor of ${change.targetLabel}, last 30 days:`
          : `No change to the credentials or second factor of ${change.targetLabel} in the last 30 days.`}
      </p>
      {events.length ? (
        <ul
          className="mt-1 list-disc pl-5 text-slate-700"
          aria-label={`Credential history of ${change.targetLabel}`}
        >
          {events.map((e) => (
            <li key={`${e.at}-${e.action}`}>
              {when(e.at)}: {credentialEventWords(e)}
              {e.by ? ` by ${e.by}` : ""}
              {e.result === "ok" ? "" : ` (${e.result})`}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
