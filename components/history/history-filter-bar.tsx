"use client";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Input, Select } from "@/components/ui/field.tsx";
import { type Direction, type HistoryView, parseAmountFilter } from "@/lib/format/history-filters.ts";

type Filters = Pick<HistoryView, "q" | "dir" | "min" | "max">;

/** Search and filters over the loaded rows; each change applies at once and is written to the URL. */
export function HistoryFilterBar({
  view,
  onChange,
}: {
  view: HistoryView;
  onChange: (patch: Partial<Filters>) => void;
}) {
  // Local state keeps typing smooth; the URL follows every keystroke.
  const [q, setQ] = useState(view.q);
  const [min, setMin] = useState(view.min);
  const [max, setMax] = useState(view.max);
  useEffect(() => setQ(view.q), [view.q]);
  useEffect(() => setMin(view.min), [view.min]);
  useEffect(() => setMax(view.max), [view.max]);

  const minCheck = parseAmountFilter(min);
  const maxCheck = parseAmountFilter(max);
  const active = !!(view.q || view.dir !== "all" || view.min || view.max);

  return (
    <search className="flex flex-wrap items-start gap-3" aria-label="Filter transactions">
      <Input
        label="Search"
        type="search"
        name="q"
        value={q}
        placeholder="Description, counterparty, memo…"
        onChange={(e) => {
          setQ(e.target.value);
          onChange({ q: e.target.value });
        }}
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
      <Input
        label="Minimum amount ($)"
        inputMode="decimal"
        name="min"
        value={min}
        error={minCheck.ok ? undefined : minCheck.message}
        onChange={(e) => {
          setMin(e.target.value);
          onChange({ min: e.target.value });
        }}
        className="w-40"
      />
      <Input
        label="Maximum amount ($)"
        inputMode="decimal"
        name="max"
        value={max}
        error={maxCheck.ok ? undefined : maxCheck.message}
        onChange={(e) => {
          setMax(e.target.value);
          onChange({ max: e.target.value });
        }}
        className="w-40"
      />
      {active ? (
        <Button
          variant="ghost"
          className="mt-6"
          onClick={() => onChange({ q: "", dir: "all", min: "", max: "" })}
        >
          Clear filters
        </Button>
      ) : null}
    </search>
  );
}
