"use client";
import { type FormEvent, useEffect, useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Input, Select } from "@/components/ui/field.tsx";
import { type HistoryView, type Order, validateRange } from "@/lib/format/history-filters.ts";

/** Which days to load and in which order; applied on submit because each change asks the bank. */
export function HistoryRangeForm({
  view,
  onApply,
}: {
  view: HistoryView;
  onApply: (patch: Pick<HistoryView, "from" | "to" | "order">) => void;
}) {
  const [from, setFrom] = useState(view.from);
  const [to, setTo] = useState(view.to);
  const [order, setOrder] = useState<Order>(view.order);
  const [errors, setErrors] = useState<{ from?: string; to?: string }>({});

  // Follow the URL when it changes from outside (back button, a shared link).
  useEffect(() => {
    setFrom(view.from);
    setTo(view.to);
    setOrder(view.order);
  }, [view.from, view.to, view.order]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateRange(from, to);
    setErrors(found);
    if (!found.from && !found.to) onApply({ from, to, order });
  };

  return (
    <form onSubmit={submit} aria-label="Date range" className="flex flex-wrap items-start gap-3" noValidate>
      <Input
        label="From"
        type="date"
        name="from"
        value={from}
        onChange={(e) => setFrom(e.target.value)}
        error={errors.from}
        className="w-40"
      />
      <Input
        label="To"
        type="date"
        name="to"
        value={to}
        onChange={(e) => setTo(e.target.value)}
        error={errors.to}
        className="w-40"
      />
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
