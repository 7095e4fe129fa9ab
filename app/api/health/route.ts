// GET /api/health - the dashboard is up and its database answers

import { getDashboardDb } from "@/lib/db/client.ts";
import { withPublicRoute } from "@/lib/route-kit/route.ts";

export const dynamic = "force-dynamic";

export const GET = withPublicRoute(async () => {
  const db = await getDashboardDb();
  await db.query("SELECT 1");
  return { status: "ok" };
});
