// The one check of a history range: the route's query schema (each request, at most 93 days), the
// date-range form and the range read from the address all use it, so a range gets the same field
// error wherever it comes from. Written with zod's tree-shakable build, since the browser carries it.
import * as z from "zod/mini";
import { isIsoDay } from "../bank-api/dates.ts";

/** Days one history request may span (the dashboard reads such a range day by day when it must). */
export const HISTORY_REQUEST_MAX_DAYS = 93;

/** True when `s` is a real calendar day written YYYY-MM-DD. */
export const isCalendarDay = (s: unknown): s is string => typeof s === "string" && isIsoDay(s);

const day = (which: string) =>
  z
    .string({ error: `Enter ${which} date.` })
    .check(z.refine(isCalendarDay, `Enter ${which} date as a real day (YYYY-MM-DD).`));

const spanDays = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** A range of whole days, from ≤ to, spanning at most `maxDays`, and the order to list it in. */
export function historyRangeSchema(maxDays: number) {
  const shape = { from: day("a start"), to: day("an end"), order: z.enum(["A", "D"]) };
  return z.object(shape).check(
    z.superRefine((r, ctx) => {
      if (!isCalendarDay(r.from) || !isCalendarDay(r.to)) return;
      if (r.from > r.to)
        ctx.addIssue({
          code: "custom",
          path: ["from"],
          message: "The start date must be on or before the end date.",
        });
      else if (spanDays(r.from, r.to) > maxDays)
        ctx.addIssue({
          code: "custom",
          path: ["from"],
          message: `The range can span at most ${maxDays} days.`,
        });
    }),
  );
}

/** Problems with a range as one message per field; empty when it can be read. */
export function rangeErrors(from: string, to: string, maxDays: number): { from?: string; to?: string } {
  const r = historyRangeSchema(maxDays).safeParse({ from, to, order: "D" });
  const out: { from?: string; to?: string } = {};
  if (r.success) return out;
  for (const issue of r.error.issues) {
    const field = issue.path[0] as "from" | "to";
    out[field] ??= issue.message;
  }
  return out;
}
