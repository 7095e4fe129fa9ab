"use client";
// /admin/users: the user list with role, status, unlock and password-reset controls, and a form
// to add a user. Every change goes through the audited admin API; the list re-reads after each. A
// change that gives power (a role with more permissions, enabling, a privileged user's password
// reset) waits for a second administrator and is listed, with its approval, under the users.
import { useCallback, useEffect, useState } from "react";
import { useFormContext, useFormState } from "react-hook-form";
import { Form, FormAlert, SubmitButton, TextField } from "@/components/form/form.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogActions } from "@/components/ui/dialog.tsx";
import { Panel } from "@/components/ui/section.tsx";
import { ActionsTh, Table, Td, Th } from "@/components/ui/table.tsx";
import { actionErrorText, useAdminAction } from "@/hooks/use-admin-action.ts";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { ROLE_DESCRIPTIONS, ROLE_NAMES, ROLES, type Role } from "@/lib/auth/permissions.ts";
import type {
  AdminUser,
  AdminUsersResponse,
  CreateUserResponse,
  NewUserBody,
  ResetPasswordResponse,
  UpdateUserResponse,
} from "@/lib/dashboard-api/admin.ts";
import type { AdminChange, AdminChangesResponse } from "@/lib/dashboard-api/admin-changes.ts";
import { apiFetch, sendJson } from "@/lib/dashboard-api/fetch.ts";
import { ActionMessageBox } from "./action-message.tsx";
import { PendingChanges } from "./pending-changes.tsx";

// The schema (and zod) loads when the form is first used.
const loadNewUserBody = () =>
  import("@/lib/dashboard-api/admin.ts").then((m): typeof NewUserBody => m.NewUserBody);

const send = (method: string, url: string, body?: unknown) =>
  apiFetch(url, {
    method,
    headers: body ? { "Content-Type": "application/json" } : undefined,
    body: body ? JSON.stringify(body) : undefined,
    cache: "no-store",
  });

/** The role as a choice of four, each with its whole description beside it (a select cut them off). */
function RoleChoice() {
  const { register } = useFormContext();
  const { errors } = useFormState({ name: "role" });
  const error = (errors.role as { message?: string } | undefined)?.message;
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? "new-user-role-error" : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-700">Role</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {ROLES.map((r) => (
          <label
            key={r}
            className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3 has-checked:border-brand-600 has-checked:bg-brand-50"
          >
            <input type="radio" value={r} {...register("role")} className="mt-1 size-4 accent-brand-700" />
            <span className="flex flex-col">
              <span className="text-sm font-medium text-slate-900">{ROLE_NAMES[r]}</span>
              <span className="text-sm text-slate-600">{ROLE_DESCRIPTIONS[r]}</span>
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p id="new-user-role-error" className="text-xs font-medium text-rose-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** An instant in the reader's own words. */
const when = (iso: string | undefined) =>
  iso ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" }) : "";

/** What a 202 says: the change asked for, waiting for another administrator. */
function waitingText(pending: AdminChange[]): string {
  return `Waiting for a second administrator: ${pending.map((c) => c.summary).join("; ")}.`;
}

function Status({ u }: { u: AdminUser }) {
  if (u.disabled) return <Badge tone="neutral">Disabled</Badge>;
  if (u.locked) return <Badge tone="warning">Locked (failed sign-ins)</Badge>;
  if (u.resetPending) return <Badge tone="brand">Must choose a new password</Badge>;
  return <Badge tone="success">Active</Badge>;
}

export function UsersAdmin({ currentUserId }: { currentUserId: string }) {
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [changes, setChanges] = useState<AdminChange[]>([]);
  // The list is read again after every action (load, below).
  const { busy, msg, setMsg, act } = useAdminAction(() => load());
  const [resetting, setResetting] = useState<AdminUser | null>(null);
  const form = useZodForm(loadNewUserBody, { defaultValues: { email: "", name: "", role: "viewer" } });

  const load = useCallback(async () => {
    try {
      const [list, waiting] = await Promise.all([
        apiFetch<typeof AdminUsersResponse>("/api/admin/users", { cache: "no-store" }),
        apiFetch<typeof AdminChangesResponse>("/api/admin/changes", { cache: "no-store" }),
      ]);
      setUsers(list.users);
      setChanges(waiting.changes.filter((c) => c.kind !== "setting"));
    } catch (e) {
      setMsg({ kind: "error", text: actionErrorText(e) });
    }
  }, [setMsg]);

  useEffect(() => {
    void load();
  }, [load]);

  const change = (u: AdminUser, patch: { role?: Role; disabled?: boolean }, done: string) =>
    act(async () => {
      const r = (await send("PATCH", `/api/admin/users/${u.id}`, patch)) as UpdateUserResponse;
      if (r.pending?.length) return { kind: "ok", text: waitingText(r.pending) };
      return { kind: "ok", text: done };
    });

  const unlock = (u: AdminUser) =>
    act(async () => {
      (await send("POST", `/api/admin/users/${u.id}/unlock`)) as UpdateUserResponse;
      return { kind: "ok", text: `${u.email} is unlocked and can sign in again.` };
    });

  const reset = (u: AdminUser) =>
    act(async () => {
      const r = (await send("POST", `/api/admin/users/${u.id}/reset-password`)) as ResetPasswordResponse;
      if (r.pending?.length)
        return {
          kind: "ok",
          text: `${waitingText(r.pending)} Once approved, ${u.email} is e-mailed a one-time link.`,
        };
      return {
        kind: "ok",
        text: `${u.email}'s password no longer works and their sessions have ended. A one-time link to choose a new one was e-mailed to them (it works until ${when(r.linkExpiresAt)}).`,
      };
    });

  const removeSecondFactor = (u: AdminUser) =>
    act(async () => {
      const r = (await send(
        "POST",
        `/api/admin/users/${u.id}/remove-second-factor`,
      )) as ResetPasswordResponse;
      if (r.pending?.length)
        return {
          kind: "ok",
          text: `${waitingText(r.pending)} Once approved, ${u.email} is e-mailed a one-time link.`,
        };
      return {
        kind: "ok",
        text: `A one-time link was e-mailed to ${u.email}: their two-step device is removed when they open it and confirm their password (until ${when(r.linkExpiresAt)}).`,
      };
    });

  return (
    <div className="space-y-6">
      <ActionMessageBox msg={msg} />

      <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <Table caption="Users" className="stack-on-phone">
          <thead>
            <tr>
              <Th>Name and e-mail</Th>
              <Th>Role</Th>
              <Th>Status</Th>
              <Th>Two-step</Th>
              <ActionsTh />
            </tr>
          </thead>
          <tbody>
            {users === null ? (
              <tr>
                <Td colSpan={5} className="py-6 text-slate-600">
                  Loading users…
                </Td>
              </tr>
            ) : (
              users.map((u) => {
                const self = u.id === currentUserId;
                return (
                  <tr key={u.id}>
                    <Td data-label="User">
                      <div className="font-medium text-slate-900">{u.name}</div>
                      <div className="break-all text-slate-600">{u.email}</div>
                    </Td>
                    <Td data-label="Role">
                      <label className="sr-only" htmlFor={`role-${u.id}`}>
                        Role of {u.email}
                      </label>
                      <select
                        id={`role-${u.id}`}
                        value={u.role}
                        disabled={busy || self}
                        title={ROLE_DESCRIPTIONS[u.role]}
                        onChange={(e) =>
                          change(
                            u,
                            { role: e.target.value as Role },
                            `${u.email} is now ${ROLE_NAMES[e.target.value as Role]}.`,
                          )
                        }
                        className="h-9 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900"
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {ROLE_NAMES[r]}
                          </option>
                        ))}
                      </select>
                    </Td>
                    <Td data-label="Status">
                      <div className="flex flex-wrap gap-1">
                        <Status u={u} />
                        {changes
                          .filter((c) => c.target === u.id)
                          .map((c) => (
                            <Badge key={c.id} tone="warning">
                              Waiting for approval:{" "}
                              {c.kind === "user.role"
                                ? `role ${ROLE_NAMES[c.after as Role] ?? String(c.after)}`
                                : c.kind === "user.enable"
                                  ? "enable"
                                  : c.kind === "user.totp_removal"
                                    ? "two-step device removal"
                                    : "password reset"}
                            </Badge>
                          ))}
                      </div>
                    </Td>
                    <Td data-label="Two-step">{u.totpEnabled ? "On" : "Off"}</Td>
                    <Td data-label="Actions" className="sm:text-right">
                      {self ? (
                        <span className="text-slate-600">You</span>
                      ) : (
                        <div className="flex flex-wrap gap-2 sm:justify-end">
                          {u.locked ? (
                            <Button size="sm" variant="secondary" disabled={busy} onClick={() => unlock(u)}>
                              Unlock<span className="sr-only"> {u.email}</span>
                            </Button>
                          ) : null}
                          <Button
                            size="sm"
                            variant="secondary"
                            disabled={busy}
                            onClick={() => setResetting(u)}
                          >
                            Reset password<span className="sr-only"> of {u.email}</span>
                          </Button>
                          {u.totpEnabled ? (
                            <Button
                              size="sm"
                              variant="secondary"
                              disabled={busy}
                              onClick={() => removeSecondFactor(u)}
                            >
                              Remove lost device<span className="sr-only"> of {u.email}</span>
                            </Button>
                          ) : null}
                          <Button
                            size="sm"
                            variant="secondary"
                            disabled={busy}
                            onClick={() =>
                              change(
                                u,
                                { disabled: !u.disabled },
                                `${u.email} is ${u.disabled ? "enabled" : "disabled"}.`,
                              )
                            }
                          >
                            {u.disabled ? "Enable" : "Disable"}
                            <span className="sr-only"> {u.email}</span>
                          </Button>
                        </div>
                      )}
                    </Td>
                  </tr>
                );
              })
            )}
          </tbody>
        </Table>
      </div>

      <Dialog
        open={resetting !== null}
        onClose={() => setResetting(null)}
        title={`Reset the password of ${resetting?.email ?? ""}?`}
        description="Their password stops working now and every session of theirs ends; a lockout is lifted too. They are e-mailed a one-time link to choose a new password: no one else sees it. For a day after, they cannot approve anything that moves money. For a user who moves or approves money, or administers, the reset waits for a second administrator."
      >
        <DialogActions>
          <Button variant="secondary" onClick={() => setResetting(null)}>
            Cancel
          </Button>
          <Button
            onClick={() => {
              const u = resetting;
              setResetting(null);
              if (u) void reset(u);
            }}
          >
            Reset password
          </Button>
        </DialogActions>
      </Dialog>

      <Panel id="waiting-changes" title="Waiting for a second administrator">
        <p className="mt-1 mb-3 text-sm text-slate-600">
          A role with more permissions, enabling a user again, or resetting the password or removing the
          two-step device of someone who moves or approves money applies only when another administrator
          approves it. A role change or a re-enabling lists what happened to the account's credentials in the
          last 30 days.
        </p>
        <PendingChanges
          changes={changes}
          currentUserId={currentUserId}
          caption="User changes waiting for approval"
          onDecided={load}
        />
      </Panel>

      <Panel id="add-user" title="Add a user">
        <p className="mt-1 text-sm text-slate-600">
          The new user is e-mailed an invitation link to choose their own password; no administrator sets or
          sees it. For a day after, they cannot approve anything that moves money.
        </p>
        <Form
          form={form}
          aria-labelledby="add-user"
          className="mt-4"
          onSubmit={async (values) => {
            setMsg(null);
            const created = await sendJson<typeof CreateUserResponse>("POST", "/api/admin/users", values);
            const waits = created.pending?.length
              ? ` The role ${ROLE_NAMES[values.role as Role]} waits for a second administrator.`
              : "";
            setMsg({
              kind: "ok",
              text: `Invited ${created.user.email} as ${ROLE_NAMES[created.user.role]}: a link to choose their password was e-mailed to them (it works until ${when(created.invitationExpiresAt)}).${waits}`,
            });
            form.reset({ email: "", name: "", role: "viewer" });
            await load();
          }}
        >
          <FormAlert />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField name="name" label="Full name" autoComplete="off" />
            <TextField name="email" label="Work e-mail" type="email" autoComplete="off" />
          </div>
          <RoleChoice />
          <div>
            <SubmitButton busyLabel="Adding…">Add user</SubmitButton>
          </div>
        </Form>
      </Panel>
    </div>
  );
}
