// Each dashboard instance looks for what has waited past the approval-digest setting every
// APPROVAL_DIGEST_CHECK_SECONDS, and sends the outbox through DASHBOARD_SMTP_URL when it is set.
// Several instances may look at once: the digest's transaction lock lets one of them decide.
import "server-only";
import { getBankClient } from "../bank-client/index.ts";
import { config } from "../config.ts";
import { getDashboardDb } from "../db/client.ts";
import { createLogger } from "../server/log.ts";
import { startTicker, stopTicker } from "../server/ticker.ts";
import { deliverMail, runApprovalDigest } from "./digest.ts";

const log = createLogger("digest");
const NAME = "approval digest";

async function look(): Promise<void> {
  const c = config();
  const db = await getDashboardDb();
  const out = await runApprovalDigest(db, getBankClient, { publicUrl: c.publicUrl, timeZone: c.timeZone });
  if (out.mails.length) log.info("approval digest written", { items: out.items, mails: out.mails.length });
  await deliverMail(db, { smtpUrl: c.smtpUrl, from: c.mailFrom });
}

export const startApprovalDigest = () => startTicker(NAME, config().approvalDigestCheckSeconds, log, look);
export const stopApprovalDigest = () => stopTicker(NAME);
