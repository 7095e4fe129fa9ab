// GET /api/health - the dashboard is up and its database answers
import { withPublicRoute } from "@/lib/api/route.ts";
import { getDashboardDb } from "@/lib/db/client.ts";

export const dynamic = "force-dynamic";

export const GET = withPublicRoute(async () => {
  const db = await getDashboardDb();
  await db.query("SELECT 1");
  return { status: "ok" };
});
