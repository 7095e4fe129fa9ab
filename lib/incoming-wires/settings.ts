// What the queue needs from the dashboard's settings and configuration.
import "server-only";
import { config } from "../config.ts";
import type { Queryable } from "../db/client.ts";

export async function incomingWireSettings(
  _db: Queryable,
): Promise<{ dualApprovalCents: number; timeZone: string }> {
  return { dualApprovalCents: 100_000_000, timeZone: config().timeZone };
}
