// The simulated Fedwire connection: up or down, kept in bank_settings so that a restart and
// every instance agree (docs/decisions.md, "Wire-system outage").

import type { SqlRow } from "../../lib/server/sql-row.ts";
import type { Queryable } from "../db/client.ts";
import type { bankSettings } from "../db/schema.ts";

export type WireSystemStatus = "up" | "down";

export async function wireSystemStatus(q: Queryable): Promise<WireSystemStatus> {
  const rows = await q.query<Pick<SqlRow<typeof bankSettings>, "value">>(
    "SELECT value FROM bank_settings WHERE key = 'wire_system'",
  );
  return rows[0]?.value === "down" ? "down" : "up";
}

export async function setWireSystemStatus(q: Queryable, status: WireSystemStatus): Promise<void> {
  await q.query(
    `INSERT INTO bank_settings (key, value) VALUES ('wire_system', $1)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [status],
  );
}
