// Balance-change e-mail: one message to every address of the webhook, in plain words with the
// account and both balances in dollars. Sent through SMTP (nodemailer) when BANK_SMTP_URL is
// set; otherwise the dispatcher files it in the sandbox mail box.
import nodemailer from "nodemailer";
import { formatUsd } from "../../lib/bank-api/money.ts";
import type { BalanceNotification } from "../../lib/bank-api/webhooks.ts";
import { splitList } from "../../lib/bank-api/webhooks.ts";
import { smtpOptions } from "../../lib/server/smtp.ts";

export interface BalanceMail {
  to: string[];
  subject: string;
  text: string;
}

const cents = (padded: string) => Number(padded);

export function balanceChangeMail(
  n: BalanceNotification,
  emails: string,
  opts: { description?: string; at: Date; timeZone: string },
): BalanceMail {
  const prev = cents(n.PreviousBalance);
  const next = cents(n.AvailableBalance);
  const diff = next - prev;
  const when = new Intl.DateTimeFormat("en-US", {
    timeZone: opts.timeZone,
    dateStyle: "medium",
    timeStyle: "long",
  }).format(opts.at);
  const lines = [
    `The available balance of account ${n.AccountNumber} has changed.`,
    "",
    `Previous balance:  ${formatUsd(prev)}`,
    `Available balance: ${formatUsd(next)}`,
    `Change:            ${diff < 0 ? "−" : "+"}${formatUsd(Math.abs(diff))}`,
    `When:              ${when}`,
  ];
  if (opts.description) lines.push("", `Alert: ${opts.description}`);
  lines.push("", "You receive this message because a balance alert is registered for this account.");
  return {
    to: splitList(emails),
    subject: `Balance changed on account ${n.AccountNumber}: ${formatUsd(next)}`,
    text: `${lines.join("\n")}\n`,
  };
}

/** The host part of the sender address, for Message-ID headers. */
function mailDomain(from: string): string {
  const m = /@([^>\s]+)>?\s*$/.exec(from);
  return m ? m[1] : "bank.localhost";
}

export interface SmtpMailer {
  send(mail: BalanceMail, messageId: string): Promise<void>;
  close(): void;
}

export function createSmtpMailer(smtpUrl: string, from: string, timeoutMs: number): SmtpMailer {
  const transport = nodemailer.createTransport(
    smtpOptions(smtpUrl, { variable: "BANK_SMTP_URL", timeoutMs, pool: 5 }) as never,
  );
  const domain = mailDomain(from);
  return {
    async send(mail, messageId) {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        // Stable across retries, like webhook-id, so a repeated message can be recognised.
        messageId: `<${messageId}@${domain}>`,
      });
    },
    close: () => transport.close(),
  };
}
