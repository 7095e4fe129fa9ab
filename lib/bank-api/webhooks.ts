// Balance-change webhooks (specification, "Webhook resource" and "Events"; docs/decisions.md, "Webhooks and e-mail").
import { z } from "zod";
import { LongErrorItemSchema } from "./errors.ts";
import { required, str } from "./fields.ts";

/** Field limits of the webhook resource. AccountNumber's 20 is the specification's; the others are the bank's. */
export const WEBHOOK_LIMITS = {
  accountNumber: 20,
  description: 255,
  url: 2048,
  emails: 1000,
  /** Addresses in one Emails list: one message goes to all of them. */
  emailCount: 20,
  sms: 500,
  webHookId: 64,
} as const;

const EMAIL_TEXT = String.raw`[^\s@,;<>"]+@[^\s@,;<>".]+(\.[^\s@,;<>".]+)+`;
const PHONE_TEXT = String.raw`\+\d[\d\s-]{5,19}`;
const EMAIL = new RegExp(`^${EMAIL_TEXT}$`);
const PHONE = new RegExp(`^${PHONE_TEXT}$`);
/** A comma-separated list of up to `max` items as one pattern (empty items between commas are skipped). */
const listPattern = (item: string, max: number) =>
  String.raw`^[\s,]*(?:${item})(?:\s*,[\s,]*(?:${item})){0,${max - 1}}[\s,]*$`;

function isHttpUrl(s: string): boolean {
  if (s !== s.trim() || /\s/.test(s)) return false;
  try {
    const u = new URL(s);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.length > 0;
  } catch {
    return false;
  }
}

/** The items of a comma-separated list, trimmed, empty items dropped. */
export const splitList = (s: string): string[] =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);

const list = (re: RegExp, max: number) => (s: string) => {
  const items = splitList(s);
  return items.length > 0 && items.length <= max && items.every((x) => re.test(x));
};

export const registerWebhookRequest = z
  .object({
    AccountNumber: required(WEBHOOK_LIMITS.accountNumber).regex(/^\d+$/, "must be digits"),
    Description: str(WEBHOOK_LIMITS.description).optional(),
    WebHookUrl: str(WEBHOOK_LIMITS.url)
      .refine((s) => s === "" || isHttpUrl(s), "must be a well-formed http or https URL")
      .meta({ format: "uri", pattern: "^[hH][tT][tT][pP][sS]?://[^\\s]+$" })
      .optional(),
    Emails: str(WEBHOOK_LIMITS.emails)
      .refine(
        (s) => s.trim() === "" || list(EMAIL, WEBHOOK_LIMITS.emailCount)(s),
        `must be a comma-separated list of at most ${WEBHOOK_LIMITS.emailCount} e-mail addresses`,
      )
      .meta({ pattern: listPattern(EMAIL_TEXT, WEBHOOK_LIMITS.emailCount) })
      .optional(),
    Sms: str(WEBHOOK_LIMITS.sms)
      .refine(
        (s) => s.trim() === "" || list(PHONE, 20)(s),
        "must be comma-separated phone numbers with country code (+1 555 0100)",
      )
      .meta({ pattern: listPattern(PHONE_TEXT, 20) })
      .optional(),
  })
  .superRefine((w, ctx) => {
    if (!w.WebHookUrl && !w.Emails?.trim()) {
      ctx.addIssue({ code: "custom", path: ["WebHookUrl"], message: "WebHookUrl or Emails is required" });
    }
  })
  .meta({ anyOf: [{ required: ["WebHookUrl"] }, { required: ["Emails"] }] });
export type RegisterWebhookRequest = z.output<typeof registerWebhookRequest>;

/**
 * The webhook object. The register answer adds `Errors` (long-form items, as on the other
 * account-side answers): a refused registration (not the customer's account) has an empty WebHookId.
 */
export const WebhookSchema = z.object({
  WebHookId: z.string(),
  AccountNumber: z.string(),
  Description: z.string(),
  WebHookUrl: z.string(),
  Emails: z.string(),
  Sms: z.string(),
  Errors: z.array(LongErrorItemSchema).optional(),
});
export type Webhook = z.infer<typeof WebhookSchema>;

export const webhookListQuery = z.object({
  accountNumber: str(WEBHOOK_LIMITS.accountNumber).optional(),
  webHookId: str(WEBHOOK_LIMITS.webHookId).optional(),
});

export const webhookDeleteQuery = z.object({ webHookId: required(WEBHOOK_LIMITS.webHookId) });

export const webhookListResponse = z.array(WebhookSchema);
export const webhookDeleteResponse = z.string();

/** The string DELETE answers: the client tells the outcomes apart by these texts. */
export const WEBHOOK_DELETE_MESSAGES = {
  deleted: (id: string) => `Webhook ${id} deleted`,
  notFound: "Webhook not found",
} as const;

/** The notification body (docs/decisions.md): balances as zero-padded strings of cents. */
export const BalanceNotificationSchema = z.object({
  AccountNumber: z.string(),
  AvailableBalance: z.string().regex(/^-?\d+$/),
  PreviousBalance: z.string().regex(/^-?\d+$/),
});
export type BalanceNotification = z.infer<typeof BalanceNotificationSchema>;

// The notification headers live with the contract's other header names.
export { WEBHOOK_HEADERS } from "./headers.ts";
