// Payment schedules as RFC 5545 recurrence rules: built from a form's pattern, expanded onto Fed
// business days (rolled as the user chose), and said in words.
import * as rruleModule from "rrule";
import { z } from "zod";
import { isBusinessDay, ROLLS, type Roll, rollToBusinessDay } from "../bank-api/business-days.ts";
import { addDays, isIsoDay } from "../bank-api/dates.ts";
import { dayInWords } from "../format/dates.ts";
import {
  MAX_EVERY_WEEKS,
  MAX_MONTH_DAY,
  MAX_OCCURRENCES,
  WEEKDAY_NAMES,
  WEEKDAYS,
  type WeekdayCode,
} from "./schedule-limits.ts";

export { dayInWords };

// Node loads rrule's CommonJS build (its names under `default`), a bundler its ES build (names at the top).
const { RRule, rrulestr } = (rruleModule as { default?: typeof rruleModule }).default ?? rruleModule;

export { WEEKDAYS, type WeekdayCode };

const isoDay = z.string().refine((s) => isIsoDay(s), "must be a date written YYYY-MM-DD");

/** What a person chooses on the form; `toRule` writes it as RFC 5545 text. */
export const SchedulePatternSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("once") }),
  z.object({
    kind: z.literal("weekly"),
    everyWeeks: z
      .number()
      .int()
      .min(1, "must be at least 1")
      .max(MAX_EVERY_WEEKS, `must be at most ${MAX_EVERY_WEEKS}`),
    weekday: z.enum(WEEKDAYS),
  }),
  z.object({ kind: z.literal("monthly-day"), day: z.number().int().min(1).max(MAX_MONTH_DAY) }),
  z.object({ kind: z.literal("monthly-first-business-day") }),
  z.object({ kind: z.literal("monthly-last-business-day") }),
]);
export type SchedulePattern = z.infer<typeof SchedulePatternSchema>;

export const ScheduleSchema = z
  .object({
    startsOn: isoDay,
    pattern: SchedulePatternSchema,
    count: z
      .number()
      .int()
      .min(1, "must be at least 1")
      .max(MAX_OCCURRENCES, `must be at most ${MAX_OCCURRENCES.toLocaleString("en-US")}`)
      .nullable(),
    until: isoDay.nullable(),
    roll: z.enum(ROLLS),
  })
  .superRefine((s, ctx) => {
    if (s.until && s.until < s.startsOn)
      ctx.addIssue({ code: "custom", path: ["until"], message: "must not be before the start" });
  });
export type Schedule = z.infer<typeof ScheduleSchema>;

const compact = (day: string) => day.replaceAll("-", "");

/** The RFC 5545 text of a schedule: a DTSTART line (floating UTC midnight) and one RRULE line. */
export function toRule(s: Schedule): string {
  const parts: string[] = [];
  const p = s.pattern;
  if (p.kind === "once") parts.push("FREQ=DAILY", "COUNT=1");
  else if (p.kind === "weekly") parts.push("FREQ=WEEKLY", `INTERVAL=${p.everyWeeks}`, `BYDAY=${p.weekday}`);
  else if (p.kind === "monthly-day")
    // Day 29-31 in a shorter month: its last day (the last of the listed days that exists).
    parts.push(
      "FREQ=MONTHLY",
      p.day <= 28
        ? `BYMONTHDAY=${p.day}`
        : `BYMONTHDAY=${Array.from({ length: p.day - 27 }, (_, i) => 28 + i).join(",")};BYSETPOS=-1`,
    );
  // First or last weekday of the month, then rolled the same way over a holiday: the first or last business day.
  else if (p.kind === "monthly-first-business-day")
    parts.push("FREQ=MONTHLY", "BYDAY=MO,TU,WE,TH,FR", "BYSETPOS=1");
  else parts.push("FREQ=MONTHLY", "BYDAY=MO,TU,WE,TH,FR", "BYSETPOS=-1");
  if (p.kind !== "once") {
    if (s.count) parts.push(`COUNT=${s.count}`);
    if (s.until) parts.push(`UNTIL=${compact(s.until)}T235959Z`);
  }
  return `DTSTART:${compact(s.startsOn)}T000000Z\nRRULE:${parts.join(";")}`;
}

/** The roll a pattern uses: first and last business days roll inward whatever was chosen. */
export function effectiveRoll(p: SchedulePattern, roll: Roll): Roll {
  if (p.kind === "monthly-first-business-day") return "following";
  if (p.kind === "monthly-last-business-day") return "preceding";
  return roll;
}

/** Reads a stored rule back into the form's pattern, count and end. */
export function fromRule(rule: string, roll: Roll): Schedule {
  const r = rrulestr(rule) as InstanceType<typeof RRule>;
  const o = r.origOptions;
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const startsOn = day(o.dtstart as Date);
  const byday = ([] as unknown[]).concat(o.byweekday ?? []).map((w) => String(w));
  const bymonthday = ([] as number[]).concat((o.bymonthday as number | number[] | undefined) ?? []);
  let pattern: SchedulePattern;
  if (o.freq === RRule.DAILY) pattern = { kind: "once" };
  else if (o.freq === RRule.WEEKLY)
    pattern = { kind: "weekly", everyWeeks: o.interval ?? 1, weekday: byday[0] as WeekdayCode };
  else if (bymonthday.length) pattern = { kind: "monthly-day", day: Math.max(...bymonthday) };
  else
    pattern = {
      kind: o.bysetpos === 1 ? "monthly-first-business-day" : "monthly-last-business-day",
    };
  return {
    startsOn,
    pattern,
    count: pattern.kind === "once" ? null : (o.count ?? null),
    until: o.until ? day(o.until) : null,
    roll,
  };
}

export interface Occurrence {
  /** The day the rule names: with the series, it is the occurrence's identity. */
  nominal: string;
  /** The business day it is paid on. */
  day: string;
}

/**
 * The occurrences whose business day falls in [from, to], in order. The count is of the rule's
 * days; an occurrence rolled before the start or past the end date does not happen.
 */
export function occurrencesBetween(rule: string, roll: Roll, from: string, to: string): Occurrence[] {
  const s = fromRule(rule, roll);
  const r = rrulestr(rule) as InstanceType<typeof RRule>;
  const how = effectiveRoll(s.pattern, roll);
  // A day rolls at most a few days (a weekend and a holiday): look a week either side.
  const lo = new Date(`${addDays(from, -7)}T00:00:00Z`);
  const hi = new Date(`${addDays(to, 7)}T23:59:59Z`);
  const out: Occurrence[] = [];
  for (const d of r.between(lo, hi, true)) {
    const nominal = d.toISOString().slice(0, 10);
    const day = rollToBusinessDay(nominal, how);
    if (day < s.startsOn || (s.until && day > s.until)) continue;
    if (day >= from && day <= to) out.push({ nominal, day });
  }
  return out;
}

/** The first occurrence paid on or after `from`, or null when the rule has ended. */
export function nextOccurrence(rule: string, roll: Roll, from: string): Occurrence | null {
  // Look ahead a year at a time: a weekly or monthly rule has one within it unless it has ended.
  for (let start = from, i = 0; i < 40; i++, start = addDays(start, 366)) {
    const found = occurrencesBetween(rule, roll, start, addDays(start, 365));
    if (found.length) return found[0];
    const r = rrulestr(rule) as InstanceType<typeof RRule>;
    if (!r.after(new Date(`${addDays(start, 365)}T23:59:59Z`), true)) return null;
  }
  return null;
}

const ordinal = (n: number) => {
  const s =
    n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10];
  return `${n}${s ?? "th"}`;
};

/** The schedule in words: "Monthly on the last business day, 12 times, until Dec 31, 2027". */
export function describeSchedule(s: Schedule): string {
  const p = s.pattern;
  if (p.kind === "once") {
    const day = rollToBusinessDay(s.startsOn, s.roll);
    return day === s.startsOn
      ? `Once, on ${dayInWords(day)}`
      : `Once, on ${dayInWords(day)} (${dayInWords(s.startsOn)} is not a business day)`;
  }
  const rollWords = s.roll === "following" ? "the next one" : "the one before";
  let words: string;
  if (p.kind === "weekly")
    words =
      p.everyWeeks === 1
        ? `Weekly on ${WEEKDAY_NAMES[p.weekday]}`
        : `Every ${p.everyWeeks} weeks on ${WEEKDAY_NAMES[p.weekday]}`;
  else if (p.kind === "monthly-day")
    words = `Monthly on the ${ordinal(p.day)}${p.day > 28 ? " (or the month's last day)" : ""}`;
  else if (p.kind === "monthly-first-business-day") words = "Monthly on the first business day";
  else words = "Monthly on the last business day";
  const holiday =
    p.kind === "weekly" || p.kind === "monthly-day"
      ? `; a day that is not a business day moves to ${rollWords}`
      : "";
  const count = s.count ? `, ${s.count} ${s.count === 1 ? "time" : "times"}` : "";
  const until = s.until ? `, until ${dayInWords(s.until)}` : "";
  return `${words}${count}${until}${holiday}`;
}

/** True when the day is one a payment can be made on (re-exported for forms). */
export { isBusinessDay };
