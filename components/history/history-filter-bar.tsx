"use client";
import { type ComponentProps, useEffect, useRef } from "react";
import { Form, SelectField, TextField } from "@/components/form/form.tsx";
import { Button } from "@/components/ui/button.tsx";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { type HistoryView, parseAmountFilter } from "@/lib/history/filters.ts";

type Filters = Pick<HistoryView, "q" | "dir" | "min" | "max">;

/** Every filter at its neutral value. */
export const NO_FILTERS: Filters = { q: "", dir: "all", min: "", max: "" };

/** Takes every filter off; the filter bar and the "nothing matches" message both offer it. */
export function ClearFiltersButton({
  onChange,
  ...props
}: { onChange: (patch: Filters) => void } & Omit<ComponentProps<typeof Button>, "onClick" | "children">) {
  return (
    <Button {...props} onClick={() => onChange(NO_FILTERS)}>
      Clear filters
    </Button>
  );
}

// The bar's schema (lib/history/filter-schema.ts), loaded when the bar is first used.
const filterFields = () => import("@/lib/history/filter-schema.ts").then((m) => m.HistoryFilterFields);
const FILTER_NAMES = ["q", "dir", "min", "max"] as const;

const AMOUNT_BOUNDS = [
  { name: "min", label: "Minimum amount ($)" },
  { name: "max", label: "Maximum amount ($)" },
] as const;

/**
 * Search and filters over the loaded rows; each change applies at once and is written to the URL,
 * and a change of the URL from outside (back button, a shared link) is followed.
 */
export function HistoryFilterBar({
  view,
  onChange,
}: {
  view: HistoryView;
  onChange: (patch: Partial<Filters>) => void;
}) {
  const form = useZodForm(filterFields, {
    defaultValues: { q: view.q, dir: view.dir, min: view.min, max: view.max },
    mode: "onChange",
  });
  const report = useRef(onChange);
  report.current = onChange;

  // Each keystroke or choice goes to the URL; values set from the URL below are not sent back.
  useEffect(() => {
    const watching = form.watch((values, { name, type }) => {
      if (type !== "change" || !name) return;
      report.current({ [name]: values[name] ?? "" });
    });
    return () => watching.unsubscribe();
  }, [form]);

  const { q, dir, min, max } = view;
  useEffect(() => {
    const fromUrl = { q, dir, min, max };
    for (const name of FILTER_NAMES)
      if (form.getValues(name) !== fromUrl[name]) form.setValue(name, fromUrl[name]);
    // An amount bound from the URL is checked at once, by the schema's own rule, without loading it.
    for (const name of ["min", "max"] as const) {
      const amount = parseAmountFilter(fromUrl[name]);
      if (amount.ok) form.clearErrors(name);
      else form.setError(name, { type: "amount", message: amount.message });
    }
  }, [q, dir, min, max, form]);

  const active = !!(q || dir !== "all" || min || max);

  return (
    <search aria-label="Filter transactions">
      <Form form={form} className="flex-row flex-wrap items-start gap-3" onSubmit={() => {}}>
        <TextField
          label="Search"
          type="search"
          name="q"
          placeholder="Description, counterparty, memo…"
          className="w-72 max-w-full"
        />
        <SelectField label="Direction" name="dir" className="w-36">
          <option value="all">All</option>
          <option value="debit">Debits</option>
          <option value="credit">Credits</option>
        </SelectField>
        {AMOUNT_BOUNDS.map(({ name, label }) => (
          <TextField key={name} label={label} inputMode="decimal" name={name} className="w-40" />
        ))}
        {active ? <ClearFiltersButton variant="ghost" className="mt-6" onChange={onChange} /> : null}
      </Form>
    </search>
  );
}
