// The one check of a history range: the route's query schema (each request, at most 93 days) and
// the date-range form use this schema, and the range read from the address the same rules
// (lib/history/range-check.ts), so a range gets the same field error wherever it comes from.
import * as z from "zod/mini";
import { dayProblem, isCalendarDay, spanProblem } from "../history/range-check.ts";

export { isCalendarDay, rangeErrors } from "../history/range-check.ts";

/** Days one history request may span (the dashboard reads such a range day by day when it must). */
export const HISTORY_REQUEST_MAX_DAYS = 93;

const day = (which: string) =>
  z
    .string({ error: dayProblem(which, undefined) ?? "" })
    .check(z.refine(isCalendarDay, dayProblem(which, "") ?? ""));

/** A range of whole days, from ≤ to, spanning at most `maxDays`, and the order to list it in. */
export function historyRangeSchema(maxDays: number) {
  const shape = { from: day("a start"), to: day("an end"), order: z.enum(["A", "D"]) };
  return z.object(shape).check(
    z.superRefine((r, ctx) => {
      if (!isCalendarDay(r.from) || !isCalendarDay(r.to)) return;
      const message = spanProblem(r.from, r.to, maxDays);
      if (message) ctx.addIssue({ code: "custom", path: ["from"], message });
    }),
  );
}
