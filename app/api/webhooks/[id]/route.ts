// DELETE /api/webhooks/[id] - delete a webhook at the bank, audited; the dashboard's own
// (live balances, a balance alert's e-mail) are refused with 409.

import { deleteWebhook } from "@/lib/alerts/webhooks.ts";
import { invalid } from "@/lib/api/errors.ts";
import { withRoute } from "@/lib/api/route.ts";
import { auditActor } from "@/lib/auth/audit.ts";
import { WEBHOOK_LIMITS } from "@/lib/bank-api/webhooks.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { DeleteWebhookResponseSchema } from "@/lib/dashboard-api/alerts.ts";

export const DELETE = withRoute<undefined, undefined, { id: string }, typeof DeleteWebhookResponseSchema>(
  async ({ db, user, params, ip }) => {
    const id = String(params.id ?? "");
    if (!id || id.length > WEBHOOK_LIMITS.webHookId || !/^[\w-]+$/.test(id))
      throw invalid([{ field: "id", message: "is not a webhook id" }]);
    await deleteWebhook(db, await getBankClient(), id, auditActor(user, ip));
    return { deleted: id };
  },
  { permission: "alerts.write", response: DeleteWebhookResponseSchema },
);
