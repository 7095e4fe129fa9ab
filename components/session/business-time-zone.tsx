"use client";
import { createContext, type ReactNode, useContext } from "react";
import { DEFAULT_TIME_ZONE } from "@/lib/bank-api/dates.ts";

const BusinessTimeZone = createContext(DEFAULT_TIME_ZONE);

/** The bank's business time zone, chosen on the server (DASHBOARD_TIME_ZONE), for every page below. */
export function BusinessTimeZoneProvider({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  return <BusinessTimeZone value={timeZone}>{children}</BusinessTimeZone>;
}

/** Every time the dashboard shows is in this zone, and says so. */
export function useBusinessTimeZone(): string {
  return useContext(BusinessTimeZone);
}
