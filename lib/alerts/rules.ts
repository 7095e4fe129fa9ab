// Balance-alert rules, kept in the dashboard database, one per account. Saving a rule re-arms
// both lines. Where the dashboard has no SMTP server, a rule's addresses are registered at the
// bank as an e-mail webhook on the account (the bank's webhook e-mail); that webhook follows the
// rule: replaced when the addresses change, deleted with the rule.
import "server-only";
import type { AuditEntry } from "../audit/log.ts";
import { appendAudit } from "../audit/log.ts";
import type { BankClient } from "../bank-client/client.ts";
import { unwrap } from "../bank-client/errors.ts";
import { config } from "../config.ts";
import type { AlertRule } from "../dashboard-api/alerts.ts";
import type { DashboardDb } from "../db/client.ts";
import type { alertRules } from "../db/schema.ts";
import type { SqlRow } from "../server/sql-row.ts";

export const ALERT_EMAIL_DESCRIPTION = "Treasury dashboard balance alert e-mail";

type Row = SqlRow<typeof alertRules>;

const toRule = (r: Row): AlertRule => ({
  accountNumber: r.account_number,
  belowCents: r.below_cents,
  aboveCents: r.above_cents,
  notifyUsers: r.notify_users,
  emails: r.emails,
  belowArmed: r.below_armed,
  aboveArmed: r.above_armed,
  updatedAt: new Date(r.updated_at).toISOString(),
  updatedBy: r.updated_by,
});

export async function listRules(db: DashboardDb): Promise<AlertRule[]> {
  return (await db.query<Row>("SELECT * FROM alert_rules ORDER BY account_number")).map(toRule);
}

/** The bank webhook ids that carry a rule's e-mail (shown as the dashboard's own on /webhooks). */
export async function alertEmailHookIds(db: DashboardDb): Promise<Set<string>> {
  const rows = await db.query<Row>("SELECT * FROM alert_rules WHERE bank_webhook_id IS NOT NULL");
  return new Set(rows.map((r) => r.bank_webhook_id as string));
}

export interface RuleChange {
  belowCents: number | null;
  aboveCents: number | null;
  notifyUsers: boolean;
  emails: string;
}

type Actor = Pick<AuditEntry, "actorId" | "actorEmail" | "ip">;

async function registerEmailHook(bank: BankClient, accountNumber: string, emails: string): Promise<string> {
  const r = unwrap(
    await bank.call("registerWebhook", {
      body: { AccountNumber: accountNumber, Emails: emails, Description: ALERT_EMAIL_DESCRIPTION },
    }),
  );
  if (!r.WebHookId) throw new Error(r.Errors?.[0]?.ERRORMSG ?? "The bank refused the e-mail webhook.");
  return r.WebHookId;
}

async function deleteHook(bank: BankClient, id: string): Promise<void> {
  // A webhook already gone at the bank is what was wanted.
  unwrap(await bank.call("deleteWebhook", { query: { webHookId: id } }));
}

export async function saveRule(
  db: DashboardDb,
  bank: BankClient,
  accountNumber: string,
  change: RuleChange,
  actor: Actor,
  emailDelivery: "smtp" | "bank",
): Promise<AlertRule> {
  const [old] = await db.query<Row>("SELECT * FROM alert_rules WHERE account_number = $1", [accountNumber]);
  const wantHook = emailDelivery === "bank" && change.emails !== "";
  let hookId = old?.bank_webhook_id ?? null;
  const stale = hookId && (!wantHook || old?.emails !== change.emails);
  if (wantHook && (!hookId || stale)) hookId = await registerEmailHook(bank, accountNumber, change.emails);
  if (stale && old?.bank_webhook_id) await deleteHook(bank, old.bank_webhook_id).catch(() => {});
  if (!wantHook) hookId = null;
  const [row] = await db.query<Row>(
    `INSERT INTO alert_rules (account_number, below_cents, above_cents, notify_users, emails,
                              bank_webhook_id, below_armed, above_armed, updated_by, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, true, true, $7, now())
     ON CONFLICT (account_number) DO UPDATE SET
       below_cents = EXCLUDED.below_cents, above_cents = EXCLUDED.above_cents,
       notify_users = EXCLUDED.notify_users, emails = EXCLUDED.emails,
       bank_webhook_id = EXCLUDED.bank_webhook_id, below_armed = true, above_armed = true,
       updated_by = EXCLUDED.updated_by, updated_at = now()
     RETURNING *`,
    [
      accountNumber,
      change.belowCents,
      change.aboveCents,
      change.notifyUsers,
      change.emails,
      hookId,
      actor.actorEmail,
    ],
  );
  await appendAudit(db, {
    ...actor,
    action: old ? "alert_rule.update" : "alert_rule.create",
    target: accountNumber,
    result: "ok",
    detail: { ...change, emailDelivery, bankWebhookId: hookId },
  });
  return toRule(row);
}

export async function deleteRule(
  db: DashboardDb,
  bank: BankClient,
  accountNumber: string,
  actor: Actor,
): Promise<boolean> {
  const [old] = await db.query<Row>("DELETE FROM alert_rules WHERE account_number = $1 RETURNING *", [
    accountNumber,
  ]);
  if (!old) return false;
  if (old.bank_webhook_id) await deleteHook(bank, old.bank_webhook_id).catch(() => {});
  await appendAudit(db, {
    ...actor,
    action: "alert_rule.delete",
    target: accountNumber,
    result: "ok",
    detail: { belowCents: old.below_cents, aboveCents: old.above_cents, emails: old.emails },
  });
  return true;
}

/** How alert e-mail goes out: the dashboard's SMTP server when set, else the bank's webhook e-mail. */
export function alertEmailDelivery(): "smtp" | "bank" {
  return config().smtpUrl ? "smtp" : "bank";
}
