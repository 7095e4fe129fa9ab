// The history view's state, kept in the URL so a filtered view can be shared and reloaded.
// `from`, `to` and `order` choose what the dashboard API loads; `q`, `dir`, `min` and `max`
// narrow the loaded items in the browser.

import { addDays, isIsoDay } from "../bank-api/dates.ts";
import type { HistoryItem } from "../dashboard-api/index.ts";
import { readTypedDollars, typedDollarsMessage } from "../form-rules/typed-dollars.ts";
import { todayIsoDay } from "../format/dates.ts";
import { rangeErrors } from "./range-check.ts";

export type Direction = "all" | "debit" | "credit";
export type Order = "A" | "D";

export interface HistoryView {
  from: string;
  to: string;
  order: Order;
  q: string;
  dir: Direction;
  /** Dollar text as typed; parsed with `parseAmountFilter`. */
  min: string;
  max: string;
}

/** The default range: the last 30 days up to today. */
export const DEFAULT_RANGE_DAYS = 30;
/** The widest range the history shows: about ten years, read a month at a time. */
export const MAX_RANGE_DAYS = 3660;

type ParamReader = { get(name: string): string | null };

export function defaultHistoryView(today: string = todayIsoDay()): HistoryView {
  return {
    from: addDays(today, -(DEFAULT_RANGE_DAYS - 1)),
    to: today,
    order: "D",
    q: "",
    dir: "all",
    min: "",
    max: "",
  };
}

/**
 * Reads the view from search params. Missing dates take the default range; dates given but
 * broken or reversed are kept as written, so the form shows the same field errors it would for
 * them typed (validateRange). Other malformed values fall back to their default.
 */
export function parseHistoryView(params: ParamReader, today: string = todayIsoDay()): HistoryView {
  const d = defaultHistoryView(today);
  const to = params.get("to") ?? d.to;
  const from = params.get("from") ?? (isIsoDay(to) ? addDays(to, -(DEFAULT_RANGE_DAYS - 1)) : d.from);
  const order = params.get("order")?.toUpperCase();
  const dir = params.get("dir");
  return {
    from,
    to,
    order: order === "A" ? "A" : "D",
    q: params.get("q") ?? "",
    dir: dir === "debit" || dir === "credit" ? dir : "all",
    min: params.get("min") ?? "",
    max: params.get("max") ?? "",
  };
}

/** The search string for a view, leaving out filters at their neutral value. */
export function historyViewToSearch(view: HistoryView): string {
  const p = new URLSearchParams();
  p.set("from", view.from);
  p.set("to", view.to);
  p.set("order", view.order);
  if (view.q.trim()) p.set("q", view.q);
  if (view.dir !== "all") p.set("dir", view.dir);
  if (view.min.trim()) p.set("min", view.min.trim());
  if (view.max.trim()) p.set("max", view.max.trim());
  return p.toString();
}

/** Problems with a range, as a message per field (the route's own check); empty when it can be loaded. */
export function validateRange(from: string, to: string): { from?: string; to?: string } {
  return rangeErrors(from, to, MAX_RANGE_DAYS);
}

export type AmountFilter = { ok: true; cents: number | null } | { ok: false; message: string };

/** A minimum or maximum amount typed in dollars ("1,250.50", "$30"): cents, or a message. */
export function parseAmountFilter(text: string): AmountFilter {
  const r = readTypedDollars(text);
  if (r.ok) return { ok: true, cents: r.cents };
  return r.problem === "missing"
    ? { ok: true, cents: null }
    : { ok: false, message: typedDollarsMessage(r, "sentence") };
}

/** Every piece of text a search should find an item by. */
function searchableText(item: HistoryItem): string {
  const parts = [...item.descriptions, item.description, item.code, item.paymentId ?? ""];
  if (item.sen) parts.push(item.sen.counterpartyAccount, item.sen.counterpartyName, item.sen.memo);
  return parts.join("\n").toLowerCase();
}

/**
 * The items a view shows, in the loaded order. Amount bounds compare the absolute amount and
 * are ignored while malformed (the form shows why).
 */
export function filterHistory(
  items: readonly HistoryItem[],
  view: Pick<HistoryView, "q" | "dir" | "min" | "max">,
) {
  const terms = view.q.toLowerCase().split(/\s+/).filter(Boolean);
  const min = parseAmountFilter(view.min);
  const max = parseAmountFilter(view.max);
  const minCents = min.ok ? min.cents : null;
  const maxCents = max.ok ? max.cents : null;
  if (!terms.length && view.dir === "all" && minCents === null && maxCents === null) return items.slice();
  return items.filter((item) => {
    if (view.dir !== "all" && item.direction !== view.dir) return false;
    const abs = Math.abs(item.amountCents);
    if (minCents !== null && abs < minCents) return false;
    if (maxCents !== null && abs > maxCents) return false;
    if (terms.length) {
      const text = searchableText(item);
      if (!terms.every((t) => text.includes(t))) return false;
    }
    return true;
  });
}

/** True when any client-side filter narrows the loaded items. */
export function hasActiveFilters(view: Pick<HistoryView, "q" | "dir" | "min" | "max">): boolean {
  return !!view.q.trim() || view.dir !== "all" || !!view.min.trim() || !!view.max.trim();
}
