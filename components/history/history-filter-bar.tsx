"use client";
import { type ComponentProps, useEffect, useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Input, Select } from "@/components/ui/field.tsx";
import { type Direction, type HistoryView, parseAmountFilter } from "@/lib/format/history-filters.ts";

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

/**
 * A text filter typed into its own field: local state keeps typing smooth while each keystroke
 * is written to the URL, and a change of the URL from outside (back button, a shared link) is
 * followed.
 */
function TextFilter({
  name,
  value,
  onChange,
  ...props
}: {
  name: "q" | "min" | "max";
  value: string;
  onChange: (patch: Partial<Filters>) => void;
} & Omit<ComponentProps<typeof Input>, "name" | "value" | "onChange">) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const amount = name === "q" ? null : parseAmountFilter(text);
  return (
    <Input
      {...props}
      name={name}
      value={text}
      error={amount && !amount.ok ? amount.message : undefined}
      onChange={(e) => {
        setText(e.target.value);
        onChange({ [name]: e.target.value });
      }}
    />
  );
}

const AMOUNT_BOUNDS = [
  { name: "min", label: "Minimum amount ($)" },
  { name: "max", label: "Maximum amount ($)" },
] as const;

/** Search and filters over the loaded rows; each change applies at once and is written to the URL. */
export function HistoryFilterBar({
  view,
  onChange,
}: {
  view: HistoryView;
  onChange: (patch: Partial<Filters>) => void;
}) {
  const active = !!(view.q || view.dir !== "all" || view.min || view.max);

  return (
    <search className="flex flex-wrap items-start gap-3" aria-label="Filter transactions">
      <TextFilter
        label="Search"
        type="search"
        name="q"
        value={view.q}
        onChange={onChange}
        placeholder="Description, counterparty, memo…"
        className="w-72 max-w-full"
      />
      <Select
        label="Direction"
        name="dir"
        value={view.dir}
        onChange={(e) => onChange({ dir: e.target.value as Direction })}
        className="w-36"
      >
        <option value="all">All</option>
        <option value="debit">Debits</option>
        <option value="credit">Credits</option>
      </Select>
      {AMOUNT_BOUNDS.map(({ name, label }) => (
        <TextFilter
          key={name}
          label={label}
          inputMode="decimal"
          name={name}
          value={view[name]}
          onChange={onChange}
          className="w-40"
        />
      ))}
      {active ? <ClearFiltersButton variant="ghost" className="mt-6" onChange={onChange} /> : null}
    </search>
  );
}
