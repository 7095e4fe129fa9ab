// GET /api/admin/settings - the administrator settings and who changed each; PUT - change some
import { withRoute } from "@/lib/api/route.ts";
import { SettingsResponse, UpdateSettingsBody } from "@/lib/dashboard-api/index.ts";
import { readSettingsWithChanges, updateDashboardSettings } from "@/lib/settings.ts";

export const GET = withRoute(async ({ db }) => readSettingsWithChanges(db), {
  permission: "settings.manage",
  response: SettingsResponse,
});

export const PUT = withRoute(async ({ db, body, actor }) => updateDashboardSettings(db, body, actor), {
  permission: "settings.manage",
  body: UpdateSettingsBody,
  response: SettingsResponse,
});
