// Administrator settings kept in the dashboard database (table dashboard_settings), read where a
// rule needs them: the SEN release threshold, the two-approver limits for incoming wires and for
// releasing drafts. A new setting is one entry in DashboardSettings (lib/dashboard-api/settings.ts)
// and its default.
import "server-only";
import { type Actor, appendAudit } from "../audit/log.ts";
import type { AdminChange } from "../dashboard-api/admin-changes.ts";
import {
  DashboardSettings,
  SETTING_DEFAULTS,
  SETTING_LABELS,
  type SettingsResponse,
  type UpdateSettingsBody,
  weakensControl,
} from "../dashboard-api/settings.ts";
import type { Queryable } from "../db/client.ts";
import type { dashboardSettings } from "../db/schema.ts";
import type { SqlRow } from "../server/sql-row.ts";
import { pendingChanges, requestChange } from "./changes.ts";

type Row = SqlRow<typeof dashboardSettings>;

function readRows(db: Queryable): Promise<Row[]> {
  return db.query<Row>("SELECT * FROM dashboard_settings");
}

function merge(rows: Row[]): Omit<SettingsResponse, "pending"> {
  const stored: Record<string, unknown> = {};
  const changed: SettingsResponse["changed"] = {};
  for (const r of rows) {
    if (!(r.key in SETTING_DEFAULTS)) continue;
    stored[r.key] = r.value;
    changed[r.key] = { by: r.updated_by, at: new Date(r.updated_at).toISOString() };
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
  return { ...merge(await readRows(db)), pending: await pendingChanges(db, ["setting"]) };
}

/**
 * Holds the setting's writers one at a time until the transaction ends: a change applied at once
 * and an approval of a waiting one cannot interleave between reading the value and writing it.
 */
export async function lockSetting(q: Queryable, key: string): Promise<void> {
  await q.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`dashboard_settings:${key}`]);
}

/** Writes one setting and audits it with its old value (and, for an approved change, its story). */
export async function writeSetting(
  q: Queryable,
  key: keyof DashboardSettings,
  change: { from: unknown; to: unknown; by: Actor; detail?: Record<string, unknown> },
): Promise<void> {
  await q.query(
    `INSERT INTO dashboard_settings (key, value, updated_by, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [key, JSON.stringify(change.to), change.by.email],
  );
  await appendAudit(q, {
    actorId: change.by.id,
    actorEmail: change.by.email,
    action: "settings.update",
    target: key,
    result: "ok",
    detail: { from: change.from, to: change.to, ...change.detail },
    ip: change.by.ip ?? null,
  });
}

/** The settings in force now, read inside the caller's transaction. */
export async function settingsNow(q: Queryable): Promise<DashboardSettings> {
  return merge(await readRows(q)).settings;
}

/**
 * Applies the given settings in one transaction: a change that tightens a control at once,
 * audited with its old value; one that weakens it (SETTING_WEAKER) is stored as a change that
 * waits for a second administrator, returned in `requested`.
 */
export async function updateDashboardSettings(
  db: { tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> },
  patch: UpdateSettingsBody,
  actor: Actor,
): Promise<SettingsResponse> {
  return db.tx(async (q) => {
    const keys = (Object.keys(patch) as (keyof DashboardSettings)[]).sort();
    for (const key of keys) await lockSetting(q, key);
    const before = merge(await readRows(q)).settings;
    const requested: AdminChange[] = [];
    for (const key of keys) {
      const value = patch[key];
      if (value === undefined || before[key] === value) continue;
      if (weakensControl(key, before[key], value))
        requested.push(
          await requestChange(q, actor, {
            kind: "setting",
            target: key,
            targetLabel: SETTING_LABELS[key],
            before: before[key],
            after: value,
          }),
        );
      else await writeSetting(q, key, { from: before[key], to: value, by: actor });
    }
    return {
      ...merge(await readRows(q)),
      pending: await pendingChanges(q, ["setting"]),
      ...(requested.length ? { requested } : {}),
    };
  });
}
