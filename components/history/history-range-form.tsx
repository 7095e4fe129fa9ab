"use client";
import { type FormEvent, useEffect, useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Input, Select } from "@/components/ui/field.tsx";
import { type HistoryView, type Order, validateRange } from "@/lib/format/history-filters.ts";

const DAYS = [
  { name: "from", label: "From" },
  { name: "to", label: "To" },
] as const;

/** Which days to load and in which order; applied on submit because each change asks the bank. */
export function HistoryRangeForm({
  view,
  onApply,
}: {
  view: HistoryView;
  onApply: (patch: Pick<HistoryView, "from" | "to" | "order">) => void;
}) {
  const [range, setRange] = useState({ from: view.from, to: view.to });
  const [order, setOrder] = useState<Order>(view.order);
  const [errors, setErrors] = useState<{ from?: string; to?: string }>({});

  // Follow the URL when it changes from outside (back button, a shared link).
  useEffect(() => {
    setRange({ from: view.from, to: view.to });
    setOrder(view.order);
  }, [view.from, view.to, view.order]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateRange(range.from, range.to);
    setErrors(found);
    if (!found.from && !found.to) onApply({ ...range, order });
  };

  return (
    <form onSubmit={submit} aria-label="Date range" className="flex flex-wrap items-start gap-3" noValidate>
      {DAYS.map(({ name, label }) => (
        <Input
          key={name}
          label={label}
          type="date"
          name={name}
          value={range[name]}
          onChange={(e) => setRange((r) => ({ ...r, [name]: e.target.value }))}
          error={errors[name]}
          className="w-40"
        />
      ))}
      <Select
        label="Order"
        name="order"
        value={order}
        onChange={(e) => setOrder(e.target.value as Order)}
        className="w-40"
      >
        <option value="D">Newest first</option>
        <option value="A">Oldest first</option>
      </Select>
      <Button type="submit" className="mt-6">
        Show transactions
      </Button>
    </form>
  );
}
