"use client";
// Saved wire beneficiaries: the list, and a form to add one or change one; deleting asks first.
// Every change is checked by the contract's rules in the browser and again by the route handler,
// and audited there. A new beneficiary, or a change to an account or bank, waits for a second
// person: the list says so with who changed what, and an approver who did not make it approves or
// rejects it here.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { Form, FormAlert, SubmitButton, TextField } from "@/components/form/form.tsx";
import {
  BeneficiaryBankFields,
  BeneficiaryPartyFields,
} from "@/components/send-money/beneficiary-fields.tsx";
import { PayeeChangeWho, PayeeFieldDiff, PayeeFieldList } from "@/components/send-money/payee-change.tsx";
import { Badge, type Tone } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardBody, CardHeader } from "@/components/ui/card.tsx";
import { ConfirmDialog } from "@/components/ui/dialog.tsx";
import { EmptyState } from "@/components/ui/empty-state.tsx";
import { QueryTableCard } from "@/components/ui/query-table-card.tsx";
import { Td, Th, Tr } from "@/components/ui/table.tsx";
import { useConfirmedAction } from "@/hooks/use-confirmed-action.ts";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type {
  Beneficiary,
  BeneficiaryDecisionResponse,
  BeneficiaryListResponse,
  BeneficiaryResponse,
  CreateBeneficiaryRequest,
} from "@/lib/dashboard-api/wires.ts";
import { BENEFICIARY_LABEL_MAX, TEMPLATE_FIELDS } from "@/lib/form-rules/send-money-fields.ts";

// The schema (and zod with it) loads when the form is first used, not with the page.
const loadSchema = () =>
  import("@/lib/dashboard-api/wires.ts").then(
    (m): typeof CreateBeneficiaryRequest => m.CreateBeneficiaryRequest,
  );

const KEY = ["beneficiaries"] as const;

const emptyFields = () => Object.fromEntries(TEMPLATE_FIELDS.map((f) => [f, ""])) as Record<string, string>;

function bankOf(b: Beneficiary): string {
  const f = b.fields;
  return (
    [
      f.receiving_bank_routing_id && `ABA ${f.receiving_bank_routing_id}`,
      f.beneficiary_bank_routing_id &&
        `${f.beneficiary_bank_type ?? ""} ${f.beneficiary_bank_routing_id}`.trim(),
      f.beneficiary_bank_name,
    ]
      .filter(Boolean)
      .join(" · ") || "—"
  );
}

// Each status in words, and its badge's tone (a second signal, never the only one).
const STATUS: Record<Beneficiary["status"], [word: string, tone: Tone]> = {
  approved: ["Approved", "success"],
  new: ["New: waiting for approval", "warning"],
  changed: ["Change waiting for approval", "warning"],
};

/** The status, and what waits: who changed what, masked. */
function Status({ b, me }: { b: Beneficiary; me: string }) {
  const [word, tone] = STATUS[b.status];
  const c = b.pendingChange;
  return (
    <div className="flex flex-col gap-1 text-xs text-slate-700">
      <span>
        <Badge tone={tone}>{word}</Badge>
      </span>
      {c ? (
        <>
          <PayeeChangeWho change={c} me={me} />
          {c.kind === "change" ? <PayeeFieldList change={c} /> : null}
        </>
      ) : null}
    </div>
  );
}

/** The change an approver decides, as the dialog repeats it. */
function ChangeUnderReview({ b }: { b: Beneficiary }) {
  const c = b.pendingChange;
  if (!c) return null;
  return (
    <div className="flex flex-col gap-2 text-sm">
      <p>
        <strong>{b.label}</strong>: {b.fields.beneficiary_name}
      </p>
      <PayeeFieldDiff change={c} />
      <PayeeChangeWho change={c} />
    </div>
  );
}

function Editor({
  editing,
  onDone,
  onCancel,
}: {
  editing: Beneficiary | null;
  onDone: (b: Beneficiary, verb: string) => void;
  onCancel: () => void;
}) {
  const form = useZodForm(loadSchema, {
    defaultValues: { label: editing?.label ?? "", fields: { ...emptyFields(), ...(editing?.fields ?? {}) } },
  });
  const headingRef = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  async function onSubmit() {
    const r = await apiFetch<typeof BeneficiaryResponse>(
      editing ? `/api/beneficiaries/${editing.id}` : "/api/beneficiaries",
      {
        method: editing ? "PUT" : "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(form.getValues()),
      },
    );
    onDone(r.beneficiary, editing ? "Changed" : "Saved");
  }

  return (
    <Card aria-labelledby="beneficiary-editor">
      <CardHeader
        id="beneficiary-editor"
        title={
          <span ref={headingRef} tabIndex={-1} className="focus:outline-none">
            {editing ? `Change “${editing.label}”` : "Add a beneficiary"}
          </span>
        }
        description={
          editing?.status === "new"
            ? "Not approved yet: saving makes this the version a second person approves. Wires already drafted keep their details."
            : "The label, name and address change at once; a new account or bank waits for another person to approve it. Wires already drafted keep their details."
        }
      />
      <CardBody>
        <Form form={form} onSubmit={onSubmit} aria-label={editing ? "Change beneficiary" : "Add beneficiary"}>
          <div className="grid gap-4 md:grid-cols-2">
            <TextField
              name="label"
              label="Saved as"
              maxLength={BENEFICIARY_LABEL_MAX}
              autoComplete="off"
              className="md:col-span-2"
            />
            <BeneficiaryPartyFields prefix="fields." />
            <BeneficiaryBankFields prefix="fields." />
          </div>
          <FormAlert />
          <div className="flex flex-wrap gap-2">
            <SubmitButton busyLabel="Saving…">{editing ? "Save changes" : "Save beneficiary"}</SubmitButton>
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          </div>
        </Form>
      </CardBody>
    </Card>
  );
}

export function BeneficiariesView({ me, canApprove }: { me: string; canApprove: boolean }) {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => apiFetch<typeof BeneficiaryListResponse>("/api/beneficiaries", { signal }),
  });
  // null: no form open; "new": adding; a beneficiary: changing it.
  const [editing, setEditing] = useState<Beneficiary | "new" | null>(null);
  const [announce, setAnnounce] = useState("");

  const remove = useConfirmedAction({
    mutationFn: (b: Beneficiary) => apiFetch(`/api/beneficiaries/${b.id}`, { method: "DELETE" }),
    onSuccess: (_r, b) => {
      setAnnounce(`Deleted “${b.label}”.`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });

  const decision = (verb: "approve" | "reject", said: (b: Beneficiary) => string) =>
    ({
      mutationFn: (b: Beneficiary) =>
        apiFetch<typeof BeneficiaryDecisionResponse>(`/api/beneficiaries/${b.id}/${verb}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ changeId: b.pendingChange?.id }),
        }),
      onSuccess: (_r: unknown, b: Beneficiary) => setAnnounce(said(b)),
      onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
    }) as const;
  const approve = useConfirmedAction(
    decision("approve", (b) =>
      b.status === "new"
        ? `Approved “${b.label}”: it fills wires now.`
        : `Approved the change to “${b.label}”.`,
    ),
  );
  const reject = useConfirmedAction(
    decision("reject", (b) =>
      b.status === "new"
        ? `Rejected “${b.label}”: the new beneficiary is removed.`
        : `Rejected the change to “${b.label}”: its approved details stay.`,
    ),
  );

  const rows = list.data?.beneficiaries ?? [];

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <div role="status" aria-live="polite" className="text-sm text-green-800">
        {announce}
      </div>
      {editing ? (
        <Editor
          key={editing === "new" ? "new" : editing.id}
          editing={editing === "new" ? null : editing}
          onCancel={() => setEditing(null)}
          onDone={(b, verb) => {
            setEditing(null);
            setAnnounce(
              `${verb} “${b.label}”.${
                b.status === "approved"
                  ? ""
                  : b.status === "new"
                    ? " It fills a wire once another person approves it."
                    : " The new account or bank details wait for another person's approval; until then it fills no wire."
              }`,
            );
            void queryClient.invalidateQueries({ queryKey: KEY });
          }}
        />
      ) : (
        <div>
          <Button onClick={() => setEditing("new")}>Add a beneficiary</Button>
        </div>
      )}
      <QueryTableCard
        query={list}
        id="beneficiaries-list"
        title="Saved"
        loading="Loading saved beneficiaries…"
        count={rows.length}
        empty={
          <EmptyState title="No saved beneficiaries yet">
            Add one here, or save one from the{" "}
            <Link className="text-brand-700 underline" href="/wires/new">
              Send a wire
            </Link>{" "}
            form; it then fills that form in one choice.
          </EmptyState>
        }
        caption="Saved beneficiaries"
        columns={
          <>
            {/* On a phone: the saved name with the beneficiary and bank below it, and the actions. */}
            <Th>Saved as</Th>
            <Th className="hidden md:table-cell">Beneficiary</Th>
            <Th className="hidden md:table-cell">Bank</Th>
            <Th className="hidden md:table-cell">Status</Th>
            <Th className="hidden md:table-cell">Saved by</Th>
          </>
        }
      >
        {rows.map((b) => (
          <Tr key={b.id} data-beneficiary={b.label}>
            <Td>
              <span className="font-medium">{b.label}</span>
              <span className="block text-xs text-slate-600 md:hidden">
                {b.fields.beneficiary_name} · account {b.fields.beneficiary_account_number}
              </span>
              <span className="block text-xs text-slate-600 md:hidden">{bankOf(b)}</span>
              <span className="mt-1 block md:hidden">
                <Status b={b} me={me} />
              </span>
            </Td>
            <Td className="hidden md:table-cell">
              {b.fields.beneficiary_name}
              <span className="block text-xs text-slate-600">
                account {b.fields.beneficiary_account_number}
              </span>
            </Td>
            <Td className="hidden md:table-cell">{bankOf(b)}</Td>
            <Td className="hidden md:table-cell">
              <Status b={b} me={me} />
            </Td>
            <Td className="hidden md:table-cell">{b.createdBy}</Td>
            <Td>
              <div className="flex flex-col gap-2 md:flex-row md:flex-wrap">
                {b.pendingChange && canApprove && b.pendingChange.changedBy.id !== me ? (
                  <>
                    <Button size="sm" onClick={() => approve.ask(b)} aria-label={`Approve ${b.label}`}>
                      Approve
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() => reject.ask(b)}
                      aria-label={`Reject ${b.label}`}
                    >
                      Reject
                    </Button>
                  </>
                ) : b.pendingChange ? (
                  <span className="text-xs text-slate-600">
                    {b.pendingChange.changedBy.id === me
                      ? "Another approver approves it"
                      : "Waits for an approver"}
                  </span>
                ) : null}
                {b.status !== "changed" ? (
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() => setEditing(b)}
                    aria-label={`Change ${b.label}`}
                  >
                    Change
                  </Button>
                ) : null}
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => remove.ask(b)}
                  aria-label={`Delete ${b.label}`}
                >
                  Delete
                </Button>
              </div>
            </Td>
          </Tr>
        ))}
      </QueryTableCard>

      <ConfirmDialog
        {...approve.dialog}
        title={approve.item?.status === "new" ? "Approve this new beneficiary?" : "Approve this change?"}
        description="Once approved it fills wires. Check the details with the beneficiary through a contact you already knew, not one that came with the change."
        cancelLabel="Not now"
        actionLabel="Approve"
        busyLabel="Approving…"
      >
        {approve.item ? <ChangeUnderReview b={approve.item} /> : null}
      </ConfirmDialog>

      <ConfirmDialog
        {...reject.dialog}
        title={reject.item?.status === "new" ? "Reject this new beneficiary?" : "Reject this change?"}
        description={
          reject.item?.status === "new"
            ? "The new beneficiary is removed; nothing was paid to it."
            : "The beneficiary keeps its approved details."
        }
        cancelLabel="Not now"
        actionLabel="Reject"
        busyLabel="Rejecting…"
      >
        {reject.item ? <ChangeUnderReview b={reject.item} /> : null}
      </ConfirmDialog>

      <ConfirmDialog
        {...remove.dialog}
        title="Delete this saved beneficiary?"
        description="Wires already drafted with it are not changed."
        cancelLabel="Keep it"
        actionLabel="Delete"
        busyLabel="Deleting…"
      >
        {remove.item ? (
          <p className="text-sm">
            <strong>{remove.item.label}</strong>: {remove.item.fields.beneficiary_name}, account{" "}
            {remove.item.fields.beneficiary_account_number}
          </p>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}
