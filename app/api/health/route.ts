// GET /api/health - the dashboard is up and its database answers. Under `npm start` it also names
// the start's instance (START_INSTANCE, random per start), so the start waits for its own
// dashboard and never takes another server that holds the port for it.

import type { HealthResponse } from "@/lib/dashboard-api/health.ts";
import { getDashboardDb } from "@/lib/db/client.ts";
import { withPublicRoute } from "@/lib/route-kit/route.ts";

export const dynamic = "force-dynamic";

export const GET = withPublicRoute(async () => {
  const db = await getDashboardDb();
  await db.query("SELECT 1");
  const instance = process.env.START_INSTANCE;
  return { status: "ok", ...(instance ? { instance } : {}) } satisfies HealthResponse;
});
