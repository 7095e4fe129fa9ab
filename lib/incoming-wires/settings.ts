// What the queue needs from the dashboard's settings and configuration.
import "server-only";
import type { Queryable } from "../db/client.ts";

export async function incomingWireSettings(
  _db: Queryable,
): Promise<{ dualApprovalCents: number; timeZone: string }> {
  return {
    dualApprovalCents: 100_000_000,
    timeZone: process.env.DASHBOARD_TIME_ZONE || "America/New_York",
  };
}
