// GET /api/me - the signed-in user (SessionUser)
import { withRoute } from "@/lib/api/route";

export const GET = withRoute(async ({ user }) => user);
