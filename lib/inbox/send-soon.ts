// Sends the outbox now, in the background, after a request queued a message a person waits for
// (an invitation or reset link): the periodic look (digest-ticker.ts) is the fallback.
import "server-only";
import { config } from "../config.ts";
import { getDashboardDb } from "../db/client.ts";
import { createLogger } from "../server/log.ts";
import { deliverMail } from "./digest.ts";

const log = createLogger("mail");

export function sendMailSoon(): void {
  const c = config();
  if (!c.smtpUrl) return;
  void (async () => {
    try {
      await deliverMail(await getDashboardDb(), { smtpUrl: c.smtpUrl, from: c.mailFrom });
    } catch (err) {
      log.warn("dashboard e-mail: a send failed; the periodic look tries again", { err: String(err) });
    }
  })();
}
