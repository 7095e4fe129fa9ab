"use client";
// The integration tokens: a form that makes one (name and accounts) and shows its value once, and
// the list with each token's accounts, last use and its address, and Revoke (after a confirmation).
import { useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardBody, CardHeader } from "@/components/ui/card.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { Checkbox, Input } from "@/components/ui/field.tsx";
import { apiFetch, failureMessage } from "@/lib/dashboard-api/fetch.ts";

export interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  accounts: string[];
  createdBy: string;
  createdAt: string;
  revokedAt: string | null;
  revokedBy: string | null;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
}

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" }) : "Never";

export function IntegrationTokensAdmin({
  initial,
  accounts,
}: {
  initial: TokenRow[];
  accounts: { accountNumber: string; name: string }[] | null;
}) {
  const [tokens, setTokens] = useState(initial);
  const [name, setName] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  const [made, setMade] = useState<{ name: string; token: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function reload() {
    const r = (await apiFetch("/api/admin/integration-tokens", { cache: "no-store" })) as {
      tokens: TokenRow[];
    };
    setTokens(r.tokens);
  }

  async function create() {
    setError(null);
    setMade(null);
    if (!name.trim()) return setError("Name the system the token is for.");
    if (!chosen.length) return setError("Choose at least one account.");
    setBusy(true);
    try {
      const r = (await apiFetch("/api/admin/integration-tokens", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: name.trim(), accounts: chosen }),
      })) as { token: string; record: TokenRow };
      setMade({ name: r.record.name, token: r.token });
      setName("");
      setChosen([]);
      await reload();
    } catch (e) {
      setError(failureMessage(e, "The token could not be made."));
    } finally {
      setBusy(false);
    }
  }

  async function revoke(t: TokenRow) {
    if (!window.confirm(`Revoke "${t.name}"? Its next request is refused, on every instance.`)) return;
    setError(null);
    try {
      await apiFetch(`/api/admin/integration-tokens/${t.id}`, { method: "DELETE" });
      await reload();
    } catch (e) {
      setError(failureMessage(e, "The token could not be revoked."));
    }
  }

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader title="New token" description="Read-only, for the accounts you choose." />
        <CardBody className="flex flex-col gap-4">
          <Input label="For" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} />
          {accounts ? (
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-semibold text-slate-900">Accounts</legend>
              {accounts.map((a) => (
                <Checkbox
                  key={a.accountNumber}
                  label={`${a.name || "Account"} · ${a.accountNumber}`}
                  checked={chosen.includes(a.accountNumber)}
                  onChange={(e) =>
                    setChosen((c) =>
                      e.target.checked ? [...c, a.accountNumber] : c.filter((x) => x !== a.accountNumber),
                    )
                  }
                />
              ))}
            </fieldset>
          ) : (
            <p className="text-sm text-slate-700">
              The bank did not answer: reload the page to choose accounts.
            </p>
          )}
          <div className="flex items-center gap-4">
            <Button onClick={() => void create()} disabled={busy || !accounts}>
              {busy ? "Creating…" : "Create token"}
            </Button>
            <p role="alert" className="text-sm text-red-700">
              {error ?? ""}
            </p>
          </div>
          {made ? (
            <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm">
              <p className="font-medium text-slate-900">
                The token for {made.name}. Copy it now: it is not shown again.
              </p>
              <div className="mt-2 flex items-center gap-2">
                <code className="break-all" data-testid="new-token">
                  {made.token}
                </code>
                <CopyButton text={made.token} label="Copy the token" />
              </div>
            </div>
          ) : null}
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="Tokens" />
        <CardBody>
          {tokens.length === 0 ? (
            <p className="text-sm text-slate-600">No integration token yet.</p>
          ) : (
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="text-slate-600">
                  <th className="py-2 pr-4 font-medium">For</th>
                  <th className="py-2 pr-4 font-medium">Accounts</th>
                  <th className="py-2 pr-4 font-medium">Last used</th>
                  <th className="py-2 pr-4 font-medium">From</th>
                  <th className="py-2 pr-4 font-medium">State</th>
                  <th className="py-2 font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((t) => (
                  <tr key={t.id} className="border-t border-slate-200 align-top">
                    <td className="py-2 pr-4">
                      <div className="font-medium text-slate-900">{t.name}</div>
                      <div className="text-slate-600">
                        <code>{t.prefix}…</code> · by {t.createdBy}, {when(t.createdAt)}
                      </div>
                    </td>
                    <td className="py-2 pr-4">{t.accounts.join(", ")}</td>
                    <td className="py-2 pr-4">{when(t.lastUsedAt)}</td>
                    <td className="py-2 pr-4">{t.lastUsedIp ?? "—"}</td>
                    <td className="py-2 pr-4">
                      {t.revokedAt ? `Revoked ${when(t.revokedAt)} by ${t.revokedBy}` : "Active"}
                    </td>
                    <td className="py-2">
                      {t.revokedAt ? null : (
                        <Button variant="secondary" size="sm" onClick={() => void revoke(t)}>
                          Revoke<span className="sr-only"> {t.name}</span>
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardBody>
      </Card>
    </div>
  );
}
