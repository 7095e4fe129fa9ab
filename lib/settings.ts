// Administrator settings kept in the dashboard database (table dashboard_settings), read where a
// rule needs them: the SEN release threshold, the two-approver limit for incoming wires. A new
// setting is one entry in DashboardSettings (lib/dashboard-api/settings.ts) and its default.
import "server-only";
import { type Actor, appendAudit } from "./auth/audit.ts";
import {
  DashboardSettings,
  SETTING_DEFAULTS,
  type SettingsResponse,
  type UpdateSettingsBody,
} from "./dashboard-api/settings.ts";
import type { Queryable } from "./db/client.ts";
import type { dashboardSettings } from "./db/schema.ts";

type Row = Pick<typeof dashboardSettings.$inferSelect, "key" | "value" | "updatedBy" | "updatedAt">;

async function readRows(db: Queryable): Promise<Row[]> {
  return db.query<Row>(
    `SELECT key, value, updated_by AS "updatedBy", updated_at AS "updatedAt" FROM dashboard_settings`,
  );
}

function merge(rows: Row[]): SettingsResponse {
  const stored: Record<string, unknown> = {};
  const changed: SettingsResponse["changed"] = {};
  for (const r of rows) {
    if (!(r.key in SETTING_DEFAULTS)) continue;
    stored[r.key] = r.value;
    changed[r.key] = { by: r.updatedBy, at: new Date(r.updatedAt).toISOString() };
  }
  // A stored value that no longer fits the schema (a rule tightened since) falls back to its default.
  const settings = { ...SETTING_DEFAULTS };
  for (const [k, v] of Object.entries(stored)) {
    const one = DashboardSettings.shape[k as keyof DashboardSettings]?.safeParse(v);
    if (one?.success) settings[k as keyof DashboardSettings] = one.data;
  }
  return { settings, changed };
}

export async function getDashboardSettings(db: Queryable): Promise<DashboardSettings> {
  return merge(await readRows(db)).settings;
}

export async function readSettingsWithChanges(db: Queryable): Promise<SettingsResponse> {
  return merge(await readRows(db));
}

/** Stores the given settings in one transaction and audits each change with its old value. */
export async function updateDashboardSettings(
  db: { tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> },
  patch: UpdateSettingsBody,
  actor: Actor,
): Promise<SettingsResponse> {
  return db.tx(async (q) => {
    const before = merge(await readRows(q)).settings;
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined || before[key as keyof DashboardSettings] === value) continue;
      await q.query(
        `INSERT INTO dashboard_settings (key, value, updated_by, updated_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = now()`,
        [key, JSON.stringify(value), actor.email],
      );
      await appendAudit(q, {
        actorId: actor.id,
        actorEmail: actor.email,
        action: "settings.update",
        target: key,
        result: "ok",
        detail: { from: before[key as keyof DashboardSettings], to: value },
        ip: actor.ip ?? null,
      });
    }
    return merge(await readRows(q));
  });
}
