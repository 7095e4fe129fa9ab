// GET /api/me - the signed-in user (SessionUser)
import { withRoute } from "@/lib/api/route.ts";
import { SessionUser } from "@/lib/dashboard-api/index.ts";

export const GET = withRoute(async ({ user }) => user, { response: SessionUser });
