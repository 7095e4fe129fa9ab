// The simulated Fedwire connection: up or down, kept in bank_settings so that a restart and
// every instance agree (docs/decisions.md, "Wire-system outage").
import type { Queryable } from "../db/client.ts";

export type WireSystemStatus = "up" | "down";

export async function wireSystemStatus(q: Queryable): Promise<WireSystemStatus> {
  const rows = await q.query<{ value: string }>("SELECT value FROM bank_settings WHERE key = 'wire_system'");
  return rows[0]?.value === "down" ? "down" : "up";
}

export async function setWireSystemStatus(q: Queryable, status: WireSystemStatus): Promise<void> {
  await q.query(
    `INSERT INTO bank_settings (key, value) VALUES ('wire_system', $1)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [status],
  );
}
