// Webhook management: the bank's webhooks of the customer's accounts, marked with who owns them.
// The dashboard's own (live balances, a balance alert's e-mail) cannot be deleted from here: they
// would come back at the next check, or silently stop an alert's e-mail.
import "server-only";
import { type AuditEntry, appendAudit } from "../audit/log.ts";
import { WEBHOOK_DELETE_MESSAGES, type Webhook } from "../bank-api/webhooks.ts";
import type { BankClient } from "../bank-client/client.ts";
import { BankCallError, unwrap } from "../bank-client/errors.ts";
import type { WebhooksResponse, WebhookView } from "../dashboard-api/alerts.ts";
import type { DashboardDb } from "../db/client.ts";
import { liveHookKind } from "../live/receiver.ts";
import { conflict, notFound } from "../route-kit/errors.ts";
import { alertEmailHookIds } from "./rules.ts";

type Actor = Pick<AuditEntry, "actorId" | "actorEmail" | "ip">;

/**
 * The URL as the page shows it: a live-balance receiver's path token is a secret (the first of the
 * receiver's two checks, before the signature), so it is shown masked to every role.
 */
function shownUrl(url: string, owner: WebhookView["owner"]): string {
  return owner === "live" ? url.replace(/(\/api\/bank-events\/)[^/?#]+/, "$1••••••") : url;
}

function webhookView(h: Webhook, owner: WebhookView["owner"]): WebhookView {
  return {
    id: h.WebHookId,
    accountNumber: h.AccountNumber,
    description: h.Description,
    url: shownUrl(h.WebHookUrl, owner),
    emails: h.Emails,
    sms: h.Sms,
    owner,
  };
}

export async function listWebhookViews(db: DashboardDb, bank: BankClient): Promise<WebhooksResponse> {
  const [list, hooks, own] = await Promise.all([
    bank.call("accountList"),
    bank.call("listWebhooks"),
    alertEmailHookIds(db),
  ]);
  const accounts = unwrap(list).ResponseData.flatMap((d) =>
    d.CUSTACCT.map((a) => ({ accountNumber: a.ACTNBR, name: a.SHORTNAME || a.ACTNBR })),
  );
  const webhooks = unwrap(hooks).map((h) =>
    webhookView(h, liveHookKind(h.WebHookUrl) ? "live" : own.has(h.WebHookId) ? "alert-email" : "other"),
  );
  webhooks.sort((a, b) => a.accountNumber.localeCompare(b.accountNumber) || a.id.localeCompare(b.id));
  return { accounts, webhooks };
}

export async function registerWebhook(
  db: DashboardDb,
  bank: BankClient,
  input: { accountNumber: string; description: string; url: string; emails: string },
  actor: Actor,
): Promise<WebhookView> {
  const r = await bank.call("registerWebhook", {
    body: {
      AccountNumber: input.accountNumber,
      Description: input.description,
      ...(input.url ? { WebHookUrl: input.url } : {}),
      ...(input.emails ? { Emails: input.emails } : {}),
    },
  });
  const refused = r.ok && !r.data.WebHookId;
  await appendAudit(db, {
    ...actor,
    action: "webhook.register",
    target: input.accountNumber,
    result: r.ok && !refused ? "ok" : "failed",
    detail: {
      url: input.url,
      emails: input.emails,
      description: input.description,
      ...(r.ok ? { webHookId: r.data.WebHookId } : { error: r.error.message }),
    },
  });
  const h = unwrap(r);
  if (!h.WebHookId)
    throw new BankCallError({
      kind: "rejected",
      message: h.Errors?.[0]?.ERRORMSG ?? "The bank did not register the webhook.",
      fields: [{ field: "accountNumber", message: h.Errors?.[0]?.ERRORMSG ?? "refused by the bank" }],
    });
  return webhookView({ ...h, WebHookId: h.WebHookId }, "other");
}

export async function deleteWebhook(
  db: DashboardDb,
  bank: BankClient,
  id: string,
  actor: Actor,
): Promise<void> {
  const found = unwrap(await bank.call("listWebhooks", { query: { webHookId: id } }));
  const hook = found.find((h) => h.WebHookId === id);
  if (!hook) throw notFound("No such webhook.");
  const own = liveHookKind(hook.WebHookUrl)
    ? "the dashboard's live balances"
    : (await alertEmailHookIds(db)).has(id)
      ? "a balance alert's e-mail"
      : null;
  if (own) {
    await appendAudit(db, {
      ...actor,
      action: "webhook.delete",
      target: hook.AccountNumber,
      result: "refused: dashboard's own",
      detail: { webHookId: id },
    });
    throw conflict(
      `This webhook carries ${own}; it is managed by the dashboard${own.startsWith("a balance") ? " (edit the alert on /alerts)" : ""}.`,
    );
  }
  const r = await bank.call("deleteWebhook", { query: { webHookId: id } });
  const ok = r.ok && r.data === WEBHOOK_DELETE_MESSAGES.deleted(id);
  await appendAudit(db, {
    ...actor,
    action: "webhook.delete",
    target: hook.AccountNumber,
    result: ok ? "ok" : "failed",
    detail: {
      webHookId: id,
      url: hook.WebHookUrl,
      emails: hook.Emails,
      answer: r.ok ? r.data : r.error.message,
    },
  });
  const answer = unwrap(r);
  if (answer === WEBHOOK_DELETE_MESSAGES.notFound) throw notFound("No such webhook.");
}
