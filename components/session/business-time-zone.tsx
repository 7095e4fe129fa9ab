"use client";
import { createContext, type ReactNode, useContext } from "react";

const BusinessTimeZone = createContext("America/New_York");

/** The bank's business time zone, chosen on the server (DASHBOARD_TIME_ZONE), for every page below. */
export function BusinessTimeZoneProvider({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  return <BusinessTimeZone value={timeZone}>{children}</BusinessTimeZone>;
}

/** Every time the dashboard shows is in this zone, and says so. */
export function useBusinessTimeZone(): string {
  return useContext(BusinessTimeZone);
}
