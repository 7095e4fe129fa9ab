"use client";
import { useEffect, useRef } from "react";
import { Form, SelectField, SubmitButton, TextField } from "@/components/form/form.tsx";
import { useZodForm } from "@/hooks/use-zod-form.ts";
import { type HistoryView, MAX_RANGE_DAYS } from "@/lib/history/filters.ts";
import { rangeErrors } from "@/lib/history/range-check.ts";

// The route's own range check (lib/dashboard-api/history-range.ts), with the view's longer limit
// (a long range is read a month at a time), loaded when the form is first used.
const rangeFields = () =>
  import("@/lib/dashboard-api/history-range.ts").then((m) => m.historyRangeSchema(MAX_RANGE_DAYS));

/**
 * Which days to load and in which order; applied on submit because each change asks the bank.
 * A range taken from the address is checked at once, so a broken or over-long one in a link gets
 * the same message under its field as one typed here.
 */
export function HistoryRangeForm({
  view,
  onApply,
}: {
  view: HistoryView;
  onApply: (patch: Pick<HistoryView, "from" | "to" | "order">) => void;
}) {
  const form = useZodForm(rangeFields, {
    defaultValues: { from: view.from, to: view.to, order: view.order },
    mode: "onSubmit",
  });

  // Follow the address when it changes from outside (back button, a shared link), and explain it.
  // The first view is the form's default already: resetting to it would write over what was
  // typed before the page hydrated.
  const { from, to, order } = view;
  const shown = useRef(`${from} ${to} ${order}`);
  useEffect(() => {
    const now = `${from} ${to} ${order}`;
    if (shown.current !== now) form.reset({ from, to, order });
    shown.current = now;
    // The same rules as the schema, without waiting for it to load.
    const problems = rangeErrors(from, to, MAX_RANGE_DAYS);
    for (const field of ["from", "to"] as const) {
      const message = problems[field];
      if (message) form.setError(field, { type: "range", message });
    }
  }, [from, to, order, form]);

  return (
    <Form
      form={form}
      aria-label="Date range"
      className="flex-row flex-wrap items-start gap-3"
      onSubmit={(values) => onApply(values)}
    >
      <TextField name="from" label="From" type="date" className="w-40" />
      <TextField name="to" label="To" type="date" className="w-40" />
      <SelectField name="order" label="Order" className="w-40">
        <option value="D">Newest first</option>
        <option value="A">Oldest first</option>
      </SelectField>
      <SubmitButton className="mt-6">Show transactions</SubmitButton>
    </Form>
  );
}
