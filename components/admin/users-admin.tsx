"use client";
// /admin/users: the user list with role and status controls, and a form to add a user.
// Every change goes through the audited admin API; the table re-reads after each one.
import { useCallback, useEffect, useId, useState } from "react";
import { ROLE_DESCRIPTIONS, ROLES, type Role } from "@/lib/auth/permissions";
import type {
  AdminUser,
  AdminUsersResponse,
  ApiErrorBody,
  CreateUserResponse,
} from "@/lib/dashboard-api/index.ts";

type Msg = { kind: "ok" | "error"; text: string } | null;

function errorText(data: unknown): string {
  const e = (data as ApiErrorBody | null)?.error;
  if (!e) return "Something went wrong. Try again.";
  return e.fields?.length
    ? `${e.message} ${e.fields.map((f) => `${f.field}: ${f.message}`).join("; ")}`
    : e.message;
}

async function api(method: string, url: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: body ? { "Content-Type": "application/json" } : undefined,
    body: body ? JSON.stringify(body) : undefined,
    cache: "no-store",
  });
  return { ok: res.ok, data: (await res.json().catch(() => null)) as unknown };
}

const control =
  "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 focus:border-blue-800 focus:outline-none focus:ring-2 focus:ring-blue-800/30";

export function UsersAdmin({ currentUserId }: { currentUserId: string }) {
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [msg, setMsg] = useState<Msg>(null);
  const [busy, setBusy] = useState(false);
  const [form, setForm] = useState({ email: "", name: "", role: "viewer" as Role });
  const ids = { email: useId(), name: useId(), role: useId() };

  const load = useCallback(async () => {
    const r = await api("GET", "/api/admin/users");
    if (r.ok) setUsers((r.data as AdminUsersResponse).users);
    else setMsg({ kind: "error", text: errorText(r.data) });
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function change(u: AdminUser, patch: { role?: Role; disabled?: boolean }, done: string) {
    setBusy(true);
    setMsg(null);
    const r = await api("PATCH", `/api/admin/users/${u.id}`, patch);
    setBusy(false);
    setMsg(r.ok ? { kind: "ok", text: done } : { kind: "error", text: errorText(r.data) });
    await load();
  }

  async function add(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setMsg(null);
    const r = await api("POST", "/api/admin/users", form);
    setBusy(false);
    if (!r.ok) return setMsg({ kind: "error", text: errorText(r.data) });
    const created = r.data as CreateUserResponse;
    setMsg({
      kind: "ok",
      text: `Added ${created.user.email} as ${created.user.role}.${created.temporaryPassword ? ` Temporary password (shown once): ${created.temporaryPassword}` : ""}`,
    });
    setForm({ email: "", name: "", role: "viewer" });
    await load();
  }

  return (
    <div className="space-y-6">
      {msg ? (
        <p
          role={msg.kind === "error" ? "alert" : "status"}
          className={`rounded-md px-3 py-2 text-sm ${msg.kind === "error" ? "border border-red-200 bg-red-50 text-red-800" : "border border-green-200 bg-green-50 text-green-900"}`}
        >
          {msg.text}
        </p>
      ) : null}

      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="px-4 py-3 text-left font-semibold text-slate-900">Users</caption>
          <thead className="bg-slate-50 text-left text-slate-600">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">
                Name and e-mail
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Role
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Status
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Two-step
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {users === null ? (
              <tr>
                <td colSpan={5} className="px-4 py-6 text-slate-500">
                  Loading users…
                </td>
              </tr>
            ) : (
              users.map((u) => {
                const self = u.id === currentUserId;
                return (
                  <tr key={u.id}>
                    <td className="px-4 py-2">
                      <div className="font-medium text-slate-900">{u.name}</div>
                      <div className="text-slate-600">{u.email}</div>
                    </td>
                    <td className="px-4 py-2">
                      <label className="sr-only" htmlFor={`role-${u.id}`}>
                        Role of {u.email}
                      </label>
                      <select
                        id={`role-${u.id}`}
                        value={u.role}
                        disabled={busy || self}
                        onChange={(e) =>
                          change(u, { role: e.target.value as Role }, `${u.email} is now ${e.target.value}.`)
                        }
                        className={control}
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td className="px-4 py-2">
                      {u.disabled ? (
                        <span className="rounded bg-slate-200 px-2 py-0.5 text-slate-800">Disabled</span>
                      ) : u.locked ? (
                        <span className="rounded bg-amber-100 px-2 py-0.5 text-amber-900">
                          Locked (failed sign-ins)
                        </span>
                      ) : (
                        <span className="rounded bg-green-100 px-2 py-0.5 text-green-900">Active</span>
                      )}
                    </td>
                    <td className="px-4 py-2 text-slate-700">{u.totpEnabled ? "On" : "Off"}</td>
                    <td className="px-4 py-2 text-right">
                      {self ? (
                        <span className="text-slate-500">You</span>
                      ) : (
                        <button
                          type="button"
                          disabled={busy}
                          onClick={() =>
                            change(
                              u,
                              { disabled: !u.disabled },
                              `${u.email} is ${u.disabled ? "enabled" : "disabled"}.`,
                            )
                          }
                          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-800 disabled:opacity-60"
                        >
                          {u.disabled ? "Enable" : "Disable"}
                          <span className="sr-only"> {u.email}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>

      <form
        onSubmit={add}
        className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
        aria-labelledby="add-user"
      >
        <h2 id="add-user" className="text-lg font-semibold text-slate-900">
          Add a user
        </h2>
        <p className="mt-1 text-sm text-slate-600">A temporary password is shown once after adding.</p>
        <div className="mt-4 grid gap-4 sm:grid-cols-3">
          <div>
            <label htmlFor={ids.name} className="block text-sm font-medium text-slate-800">
              Full name
            </label>
            <input
              id={ids.name}
              required
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
              className={`mt-1 w-full ${control}`}
            />
          </div>
          <div>
            <label htmlFor={ids.email} className="block text-sm font-medium text-slate-800">
              Work e-mail
            </label>
            <input
              id={ids.email}
              type="email"
              required
              value={form.email}
              onChange={(e) => setForm({ ...form, email: e.target.value })}
              className={`mt-1 w-full ${control}`}
            />
          </div>
          <div>
            <label htmlFor={ids.role} className="block text-sm font-medium text-slate-800">
              Role
            </label>
            <select
              id={ids.role}
              value={form.role}
              onChange={(e) => setForm({ ...form, role: e.target.value as Role })}
              className={`mt-1 w-full ${control}`}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}: {ROLE_DESCRIPTIONS[r]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button
          type="submit"
          disabled={busy}
          className="mt-4 rounded-md bg-blue-900 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-800 disabled:opacity-60"
        >
          Add user
        </button>
      </form>
    </div>
  );
}
