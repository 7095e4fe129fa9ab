// DELETE /api/webhooks/[id] - delete a webhook at the bank, audited; the dashboard's own
// (live balances, a balance alert's e-mail) are refused with 409.

import { deleteWebhook } from "@/lib/alerts/webhooks.ts";
import { auditActor } from "@/lib/audit/log.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { DeleteWebhookResponseSchema } from "@/lib/dashboard-api/alerts.ts";
import { WebhookParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const DELETE = withRoute(
  async ({ db, user, params, ip }) => {
    await deleteWebhook(db, await getBankClient(), params.id, auditActor(user, ip));
    return { deleted: params.id };
  },
  { params: WebhookParams, permission: "alerts.write", response: DeleteWebhookResponseSchema },
);
