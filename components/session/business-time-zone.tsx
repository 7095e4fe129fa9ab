"use client";
import { createContext, type ReactNode, useCallback, useContext } from "react";
import { DEFAULT_TIME_ZONE } from "@/lib/bank-api/dates.ts";
import { todayIsoDay } from "@/lib/format/dates.ts";

interface BusinessClock {
  timeZone: string;
  /** How far the bank's clock runs ahead of the server's when the page was drawn (ms). */
  bankOffsetMs: number;
}

const BusinessClockContext = createContext<BusinessClock>({ timeZone: DEFAULT_TIME_ZONE, bankOffsetMs: 0 });

/**
 * The bank's business time zone (DASHBOARD_TIME_ZONE) and its clock, chosen on the server, for every
 * page below: "today" in the browser is the bank's day, not the browser's.
 */
export function BusinessTimeZoneProvider({
  timeZone,
  bankOffsetMs = 0,
  children,
}: {
  timeZone: string;
  bankOffsetMs?: number;
  children: ReactNode;
}) {
  return <BusinessClockContext value={{ timeZone, bankOffsetMs }}>{children}</BusinessClockContext>;
}

/** Every time the dashboard shows is in this zone, and says so. */
export function useBusinessTimeZone(): string {
  return useContext(BusinessClockContext).timeZone;
}

/** The bank's business day now (YYYY-MM-DD), read afresh on each call so a page left open past midnight moves on. */
export function useBusinessToday(): () => string {
  const { timeZone, bankOffsetMs } = useContext(BusinessClockContext);
  return useCallback(
    () => todayIsoDay(new Date(Date.now() + bankOffsetMs), timeZone),
    [timeZone, bankOffsetMs],
  );
}
