// Alert e-mail sent by the dashboard itself when DASHBOARD_SMTP_URL is set: one message per
// crossing (without it, a rule's addresses get the bank's webhook e-mail instead).
import nodemailer from "nodemailer";
import { formatUsd } from "../bank-api/money.ts";
import { splitList } from "../bank-api/webhooks.ts";
import { accountInWords } from "../format/money.ts";
import { smtpOptions } from "../server/smtp.ts";

const TIMEOUT_MS = 10_000;

export interface AlertMail {
  id: number;
  kind: "below" | "above";
  thresholdCents: number;
  accountNumber: string;
  /** The account's name at the bank; the full number stands alone when it could not be read. */
  accountName?: string;
  availableCents: number;
  emails: string;
  at: string;
}

export function alertMailText(a: AlertMail): { subject: string; text: string } {
  const side = a.kind === "below" ? "fell below" : "rose above";
  const account = accountInWords(a.accountNumber, a.accountName);
  const subject = `Balance alert: ${account} ${side} ${formatUsd(a.thresholdCents)}`;
  const text = [
    `The available balance of ${account} ${side} ${formatUsd(a.thresholdCents)}.`,
    `Available balance now: ${formatUsd(a.availableCents)} (${a.at}).`,
    "",
    "You receive this message because a balance alert of the Treasury dashboard names your address.",
  ].join("\n");
  return { subject, text };
}

export async function sendAlertMail(smtp: { smtpUrl: string; from?: string }, a: AlertMail): Promise<void> {
  const transport = nodemailer.createTransport(
    smtpOptions(smtp.smtpUrl, { variable: "DASHBOARD_SMTP_URL", timeoutMs: TIMEOUT_MS }) as never,
  );
  try {
    const { subject, text } = alertMailText(a);
    const from = smtp.from || "Treasury <treasury@dashboard.localhost>";
    const domain = /@([^>\s]+)/.exec(from)?.[1] ?? "treasury.localhost";
    await transport.sendMail({
      from,
      to: splitList(a.emails),
      subject,
      text,
      // One id per alert: a resend after a failure is recognisable as the same message.
      messageId: `<alert-${a.id}@${domain}>`,
    });
  } finally {
    transport.close();
  }
}
