// Balance-change webhooks: register, list, delete (specification, "Webhooks"), and the sandbox
// views of what was delivered.
import { endpoints } from "../../lib/bank-api/endpoints.ts";
import { longError } from "../../lib/bank-api/errors.ts";
import { WEBHOOK_DELETE_MESSAGES, type Webhook } from "../../lib/bank-api/webhooks.ts";
import type { Bank } from "../context.ts";
import { badField } from "../http/errors.ts";
import type { Router } from "../http/router.ts";
import { ownedAccount } from "../ledger/accounts.ts";
import { deleteWebhook, insertWebhook, webhooksOfCustomer } from "../notify/webhook-store.ts";

export function registerWebhookRoutes(router: Router, bank: Bank) {
  const destinations = bank.webhookDestinations;

  // POST /v2/webhooks/register - a webhook on one of the customer's accounts
  router.v2(endpoints.registerWebhook, async ({ customer, body }): Promise<Webhook> => {
    if (body.WebHookUrl) {
      const refused = await destinations.refusedAtRegistration(new URL(body.WebHookUrl));
      if (refused) throw badField("WebHookUrl", refused);
    }
    const account = await ownedAccount(bank.db, customer.id, body.AccountNumber);
    if (!account) {
      return {
        WebHookId: "",
        AccountNumber: body.AccountNumber,
        Description: body.Description ?? "",
        WebHookUrl: body.WebHookUrl ?? "",
        Emails: body.Emails ?? "",
        Sms: body.Sms ?? "",
        Errors: [longError("ACCOUNT_NOT_FOUND", "AccountNumber")],
      };
    }
    const created = await insertWebhook(bank.db, customer.id, body, bank.clock.now());
    return { ...created, Errors: [] };
  });

  // GET /v2/webhooks/get - the customer's webhooks, optionally of one account or one id
  router.v2(endpoints.listWebhooks, async ({ customer, query }) =>
    webhooksOfCustomer(bank.db, customer.id, query),
  );

  // DELETE /v2/webhooks/delete - removes one of the customer's webhooks; answers a string
  router.v2(endpoints.deleteWebhook, async ({ customer, query }) =>
    (await deleteWebhook(bank.db, customer.id, query.webHookId))
      ? WEBHOOK_DELETE_MESSAGES.deleted(query.webHookId)
      : WEBHOOK_DELETE_MESSAGES.notFound,
  );
}
