// Webhook management, balance alerts and the notifications panel: request and response shapes of
// app/api/webhooks/*, app/api/alerts/* and app/api/notifications/*.
import { z } from "zod";
import { TEXT_CHECKS } from "../bank-api/rules.ts";
import { registerWebhookRequest, splitList, WEBHOOK_LIMITS } from "../bank-api/webhooks.ts";
import { readTypedDollars, typedDollarsMessage, typedDollarsToCents } from "../form-rules/typed-dollars.ts";

const accountNumber = z
  .string()
  .trim()
  .refine((s) => s.length <= WEBHOOK_LIMITS.accountNumber && /^\d+$/.test(s), "Choose an account");

// Webhooks --------------------------------------------------------------------------------

/** Who registered a webhook: the dashboard's live balances, a balance alert's e-mail, or someone else. */
export const WebhookOwnerSchema = z.enum(["live", "alert-email", "other"]);

export const WebhookViewSchema = z.object({
  id: z.string(),
  accountNumber: z.string(),
  description: z.string(),
  url: z.string(),
  emails: z.string(),
  sms: z.string(),
  owner: WebhookOwnerSchema,
});
export type WebhookView = z.infer<typeof WebhookViewSchema>;

export const AccountOptionSchema = z.object({ accountNumber: z.string(), name: z.string() });

export const WebhooksResponseSchema = z.object({
  accounts: z.array(AccountOptionSchema),
  webhooks: z.array(WebhookViewSchema),
});
export type WebhooksResponse = z.infer<typeof WebhooksResponseSchema>;

/**
 * A new webhook: a URL and/or comma-separated addresses. The checks are the contract's own
 * (registerWebhookRequest), reported under this form's field names.
 */
export const RegisterWebhookSchema = z
  .object({
    accountNumber,
    // Checked before trimming, which would drop a byte-order mark at either end unseen; the
    // contract checks the rest (registerWebhookRequest).
    description: z
      .string()
      .refine(...TEXT_CHECKS.noHiddenText)
      .trim()
      .max(WEBHOOK_LIMITS.description)
      .default(""),
    url: z.string().trim().default(""),
    emails: z.string().trim().default(""),
  })
  .superRefine((v, ctx) => {
    if (!v.url && !v.emails) {
      ctx.addIssue({ code: "custom", path: ["url"], message: "Enter a URL, e-mail addresses, or both" });
      ctx.addIssue({ code: "custom", path: ["emails"], message: "Enter a URL, e-mail addresses, or both" });
      return;
    }
    const r = registerWebhookRequest.safeParse({
      AccountNumber: v.accountNumber,
      Description: v.description,
      WebHookUrl: v.url || undefined,
      Emails: v.emails || undefined,
    });
    if (r.success) return;
    // The account number has its own check above.
    const names: Record<string, string> = { WebHookUrl: "url", Emails: "emails", Description: "description" };
    const seen = new Set<string>();
    for (const i of r.error.issues) {
      const field = names[String(i.path[0])];
      if (!field || seen.has(field)) continue;
      seen.add(field);
      const message =
        field === "url"
          ? "Enter a well-formed http:// or https:// address"
          : field === "emails"
            ? emailsMessage(v.emails)
            : i.message;
      ctx.addIssue({ code: "custom", path: [field], message });
    }
  });
export type RegisterWebhookInput = z.input<typeof RegisterWebhookSchema>;

function emailsMessage(emails: string): string {
  const bad = splitList(emails).find((x) => !EMAIL.test(x));
  return bad
    ? `"${bad}" is not an e-mail address`
    : `Enter at most ${WEBHOOK_LIMITS.emailCount} addresses, separated by commas`;
}

// The contract's address pattern, for naming the first bad address in a message.
const EMAIL = /^[^\s@,;<>"]+@[^\s@,;<>".]+(\.[^\s@,;<>".]+)+$/;

export const RegisterWebhookResponseSchema = z.object({ webhook: WebhookViewSchema });
export const DeleteWebhookResponseSchema = z.object({ deleted: z.string() });

// Balance alert rules -----------------------------------------------------------------------

/**
 * A threshold as typed: a positive dollar amount, at most two decimals, read as every other amount
 * field reads it ("$1,250", "1 250.5", ".5").
 */
const threshold = z
  .string()
  .trim()
  .superRefine((s, ctx) => {
    const r = readTypedDollars(s, { positive: true });
    if (r.ok || r.problem === "missing") return;
    ctx.addIssue({ code: "custom", message: typedDollarsMessage(r, "sentence") });
  });

/** The rule form as typed (dollars as text); the server parses it again with AlertRuleInputSchema. */
export const AlertRuleFormSchema = z
  .object({
    below: threshold.default(""),
    above: threshold.default(""),
    notifyUsers: z.boolean().default(true),
    emails: z
      .string()
      .refine(...TEXT_CHECKS.noHiddenText)
      .trim()
      .max(WEBHOOK_LIMITS.emails)
      .default(""),
  })
  .superRefine((v, ctx) => {
    if (!v.below && !v.above) {
      ctx.addIssue({ code: "custom", path: ["below"], message: "Enter a low line, a high line, or both" });
    }
    const b = v.below ? typedDollarsToCents(v.below) : null;
    const a = v.above ? typedDollarsToCents(v.above) : null;
    if (b !== null && a !== null && a <= b)
      ctx.addIssue({ code: "custom", path: ["above"], message: "The high line must be above the low line" });
    if (v.emails) {
      const items = splitList(v.emails);
      const bad = items.find((x) => !EMAIL.test(x));
      if (bad)
        ctx.addIssue({ code: "custom", path: ["emails"], message: `"${bad}" is not an e-mail address` });
      else if (items.length > WEBHOOK_LIMITS.emailCount)
        ctx.addIssue({
          code: "custom",
          path: ["emails"],
          message: `Enter at most ${WEBHOOK_LIMITS.emailCount} addresses`,
        });
    }
    if (!v.notifyUsers && !v.emails)
      ctx.addIssue({
        code: "custom",
        path: ["emails"],
        message: "Tell someone: keep signed-in users on, or enter e-mail addresses",
      });
  });
export type AlertRuleForm = z.input<typeof AlertRuleFormSchema>;

export const AlertRuleInputSchema = AlertRuleFormSchema.transform((v) => ({
  belowCents: v.below ? (typedDollarsToCents(v.below) as number) : null,
  aboveCents: v.above ? (typedDollarsToCents(v.above) as number) : null,
  notifyUsers: v.notifyUsers,
  emails: splitList(v.emails).join(", "),
}));
export type AlertRuleInput = z.input<typeof AlertRuleInputSchema>;

export const AlertRuleSchema = z.object({
  accountNumber: z.string(),
  belowCents: z.number().int().nullable(),
  aboveCents: z.number().int().nullable(),
  notifyUsers: z.boolean(),
  emails: z.string(),
  /** False once the balance crossed the line, until it comes back. */
  belowArmed: z.boolean(),
  aboveArmed: z.boolean(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
});
export type AlertRule = z.infer<typeof AlertRuleSchema>;

export const AlertRulesResponseSchema = z.object({
  accounts: z.array(AccountOptionSchema.extend({ availableCents: z.number().int().nullable() })),
  rules: z.array(AlertRuleSchema),
  /** How a rule's addresses are e-mailed: the dashboard's SMTP server, or the bank's webhook e-mail. */
  emailDelivery: z.enum(["smtp", "bank"]),
});
export type AlertRulesResponse = z.infer<typeof AlertRulesResponseSchema>;

export const SaveRuleResponseSchema = z.object({ rule: AlertRuleSchema });
export const DeleteRuleResponseSchema = z.object({ deleted: z.string() });

// Notifications -----------------------------------------------------------------------------

export const AlertSummarySchema = z.object({
  id: z.number().int(),
  kind: z.enum(["below", "above"]),
  thresholdCents: z.number().int(),
  notifyUsers: z.boolean(),
});

export const NotificationSchema = z.object({
  seq: z.number().int(),
  accountNumber: z.string(),
  availableCents: z.number().int(),
  previousCents: z.number().int(),
  at: z.string(),
  alerts: z.array(AlertSummarySchema),
  read: z.boolean(),
});
export type NotificationItem = z.infer<typeof NotificationSchema>;

export const NotificationsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(30),
});

export const NotificationsResponseSchema = z.object({
  items: z.array(NotificationSchema),
  unread: z.number().int(),
});
export type NotificationsResponse = z.infer<typeof NotificationsResponseSchema>;

export const MarkReadSchema = z.union([
  z.object({ seq: z.number().int().positive() }),
  z.object({ all: z.literal(true) }),
]);

export const MarkReadResponseSchema = z.object({ ok: z.literal(true) });

/** The `balance` Server-Sent Event's data. */
export const LiveBalanceEventSchema = NotificationSchema.omit({ read: true });
export type LiveBalanceEvent = z.infer<typeof LiveBalanceEventSchema>;
