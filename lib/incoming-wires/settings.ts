// What the queue needs from the administrator's settings and the configuration.
import "server-only";
import { config } from "../config.ts";
import type { Queryable } from "../db/client.ts";
import { getDashboardSettings } from "../settings.ts";

export async function incomingWireSettings(
  db: Queryable,
): Promise<{ dualApprovalCents: number; timeZone: string }> {
  const s = await getDashboardSettings(db);
  return { dualApprovalCents: s.incomingWireDualApprovalCents, timeZone: config().timeZone };
}
