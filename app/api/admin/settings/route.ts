// GET /api/admin/settings - the administrator settings, who changed each, and the changes waiting
// for a second administrator; PUT - change some: a change that tightens a control applies at once
// (200), one that weakens it waits for a second administrator (202, in `requested`)

import { readSettingsWithChanges, updateDashboardSettings } from "@/lib/admin/settings-store.ts";
import { SettingsResponse, UpdateSettingsBody } from "@/lib/dashboard-api/index.ts";
import { json, withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(async ({ db }) => readSettingsWithChanges(db), {
  permission: "settings.manage",
  response: SettingsResponse,
});

export const PUT = withRoute(
  async ({ db, body, actor }) => {
    const out = await updateDashboardSettings(db, body, actor);
    return out.requested ? json(out, { status: 202 }) : out;
  },
  {
    permission: "settings.manage",
    body: UpdateSettingsBody,
    response: SettingsResponse,
  },
);
