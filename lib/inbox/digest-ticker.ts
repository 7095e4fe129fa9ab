// Each dashboard instance looks for what has waited past the approval-digest setting every
// APPROVAL_DIGEST_CHECK_SECONDS, and sends the outbox through DASHBOARD_SMTP_URL when it is set.
// Several instances may look at once: the digest's transaction lock lets one of them decide.
import "server-only";
import { getBankClient } from "../bank-client/index.ts";
import { config } from "../config.ts";
import { getDashboardDb } from "../db/client.ts";
import { createLogger } from "../server/log.ts";
import { deliverMail, runApprovalDigest } from "./digest.ts";

const log = createLogger("digest");
const KEY = Symbol.for("treasury.approvalDigestTicker");
const g = globalThis as { [KEY]?: NodeJS.Timeout };

export function startApprovalDigest(): void {
  const c = config();
  if (g[KEY] || !c.bankApiUrl || !c.bankSubscriptionKey) return;
  let busy = false;
  const look = async () => {
    if (busy) return;
    busy = true;
    try {
      const db = await getDashboardDb();
      const out = await runApprovalDigest(db, getBankClient, {
        publicUrl: c.publicUrl,
        timeZone: c.timeZone,
      });
      if (out.mails.length)
        log.info("approval digest written", { items: out.items, mails: out.mails.length });
      await deliverMail(db, { smtpUrl: c.smtpUrl, from: c.mailFrom });
    } catch (err) {
      log.warn("approval digest: a look failed; the next one tries again", { err: String(err) });
    } finally {
      busy = false;
    }
  };
  g[KEY] = setInterval(() => void look(), c.approvalDigestCheckSeconds * 1000);
  g[KEY].unref();
}

export function stopApprovalDigest(): void {
  if (g[KEY]) clearInterval(g[KEY]);
  g[KEY] = undefined;
}
