// GET /api/me - the signed-in user (SessionUser)

import { SessionUser } from "@/lib/dashboard-api/index.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(async ({ user }) => user, { response: SessionUser });
