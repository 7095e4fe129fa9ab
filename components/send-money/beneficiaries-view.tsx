"use client";
// Saved wire beneficiaries: the list, and a form to add one or change one; deleting asks first.
// Every change is checked by the contract's rules in the browser and again by the route handler,
// and audited there.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { Form, FormAlert, SubmitButton, TextField } from "@/components/form/form.tsx";
import {
  BeneficiaryBankFields,
  BeneficiaryPartyFields,
} from "@/components/send-money/beneficiary-fields.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardBody, CardHeader } from "@/components/ui/card.tsx";
import { ConfirmDialog } from "@/components/ui/dialog.tsx";
import { EmptyState } from "@/components/ui/empty-state.tsx";
import { QueryTableCard } from "@/components/ui/query-table-card.tsx";
import { Td, Th, Tr } from "@/components/ui/table.tsx";
import { useConfirmedAction } from "@/hooks/use-confirmed-action.ts";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { apiFetch } from "@/lib/dashboard-api/fetch.ts";
import type { Beneficiary, BeneficiaryListResponse, BeneficiaryResponse } from "@/lib/dashboard-api/wires.ts";
import { BENEFICIARY_LABEL_MAX, TEMPLATE_FIELDS } from "@/lib/forms/send-money-fields.ts";
import type { BeneficiaryForm } from "@/lib/forms/wire.ts";

// The schema (and zod with it) loads when the form is first used, not with the page.
const loadSchema = () => import("@/lib/forms/wire.ts").then((m): typeof BeneficiaryForm => m.BeneficiaryForm);

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
        description="Wires already drafted keep the details they were prepared with."
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

export function BeneficiariesView() {
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
            setAnnounce(`${verb} “${b.label}”.`);
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
            </Td>
            <Td className="hidden md:table-cell">
              {b.fields.beneficiary_name}
              <span className="block text-xs text-slate-600">
                account {b.fields.beneficiary_account_number}
              </span>
            </Td>
            <Td className="hidden md:table-cell">{bankOf(b)}</Td>
            <Td className="hidden md:table-cell">{b.createdBy}</Td>
            <Td>
              <div className="flex flex-col gap-2 md:flex-row">
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => setEditing(b)}
                  aria-label={`Change ${b.label}`}
                >
                  Change
                </Button>
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
