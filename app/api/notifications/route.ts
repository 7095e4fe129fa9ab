// GET /api/notifications - recent balance changes and alerts of the accounts the user may see,
// with the user's read marks. POST /api/notifications - mark one ({seq}) or all ({all: true}) read.

import { listNotifications, markAllRead, markRead } from "@/lib/alerts/notifications.ts";
import { hasPermission } from "@/lib/auth/permissions.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import {
  MarkReadResponseSchema,
  MarkReadSchema,
  NotificationsQuerySchema,
  NotificationsResponseSchema,
} from "@/lib/dashboard-api/alerts.ts";
import { customerAccounts } from "@/lib/live/visibility.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const dynamic = "force-dynamic";

export const GET = withRoute(
  async ({ db, user, query }) => {
    const accounts = hasPermission(user.role, "accounts.read")
      ? await customerAccounts(await getBankClient())
      : new Set<string>();
    return listNotifications(db, user.id, accounts, query.limit);
  },
  { permission: "accounts.read", query: NotificationsQuerySchema, response: NotificationsResponseSchema },
);

export const POST = withRoute(
  async ({ db, user, body }) => {
    if ("all" in body) await markAllRead(db, user.id);
    else await markRead(db, user.id, body.seq);
    return { ok: true as const };
  },
  { permission: "accounts.read", body: MarkReadSchema, response: MarkReadResponseSchema },
);
