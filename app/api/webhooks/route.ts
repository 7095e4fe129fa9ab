// GET /api/webhooks - the bank's webhooks of the customer's accounts, each marked with its owner.
// POST /api/webhooks - register one (a URL and/or e-mail addresses), audited.

import { listWebhookViews, registerWebhook } from "@/lib/alerts/webhooks.ts";
import { auditActor } from "@/lib/audit/log.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import {
  RegisterWebhookResponseSchema,
  RegisterWebhookSchema,
  WebhooksResponseSchema,
} from "@/lib/dashboard-api/alerts.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const dynamic = "force-dynamic";

export const GET = withRoute(async ({ db }) => listWebhookViews(db, await getBankClient()), {
  permission: "alerts.read",
  response: WebhooksResponseSchema,
});

export const POST = withRoute(
  async ({ db, user, body, ip }) => ({
    webhook: await registerWebhook(db, await getBankClient(), body, auditActor(user, ip)),
  }),
  { permission: "alerts.write", body: RegisterWebhookSchema, response: RegisterWebhookResponseSchema },
);
