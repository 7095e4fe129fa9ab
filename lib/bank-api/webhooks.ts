// Balance-change webhooks (specification, "Webhook resource" and "Events").
import { z } from "zod";
import { required, str } from "./fields.ts";

const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;
const PHONE = /^\+?\d[\d\s-]{5,19}$/;

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.length > 0;
  } catch {
    return false;
  }
}

const list = (re: RegExp) => (s: string) =>
  s
    .split(",")
    .map((x) => x.trim())
    .every((x) => re.test(x));

export const registerWebhookRequest = z
  .object({
    AccountNumber: required(20).regex(/^\d+$/, "must be digits"),
    Description: str(255).optional(),
    WebHookUrl: str(2048).refine(isHttpUrl, "must be a well-formed http or https URL").optional(),
    Emails: str(1000).refine(list(EMAIL), "must be a comma-separated list of e-mail addresses").optional(),
    Sms: str(500).refine(list(PHONE), "must be comma-separated phone numbers with country code").optional(),
  })
  .superRefine((w, ctx) => {
    if (!w.WebHookUrl && !w.Emails) {
      ctx.addIssue({ code: "custom", path: ["WebHookUrl"], message: "WebHookUrl or Emails is required" });
    }
  });
export type RegisterWebhookRequest = z.output<typeof registerWebhookRequest>;

export const webhookSchema = z.object({
  WebHookId: z.string(),
  AccountNumber: z.string(),
  Description: z.string(),
  WebHookUrl: z.string(),
  Emails: z.string(),
  Sms: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookListQuery = z.object({
  accountNumber: str(20).optional(),
  webHookId: str(64).optional(),
});

export const webhookDeleteQuery = z.object({ webHookId: required(64) });

export const webhookListResponse = z.array(webhookSchema);
export const webhookDeleteResponse = z.string();

/** The notification body (FINDINGS.md): balances as zero-padded strings of cents. */
export const balanceNotificationSchema = z.object({
  AccountNumber: z.string(),
  AvailableBalance: z.string().regex(/^-?\d+$/),
  PreviousBalance: z.string().regex(/^-?\d+$/),
});
export type BalanceNotification = z.infer<typeof balanceNotificationSchema>;
