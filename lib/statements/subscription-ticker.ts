// Each dashboard instance runs the statement subscriptions every SCHEDULE_RUN_SECONDS by the
// bank's clock; each statement is e-mailed through DASHBOARD_SMTP_URL by the run that delivers it,
// and the notices of a delivery given up go through the outbox. Instances running at once share
// the work: each subscription's business day is claimed by one run and e-mailed once.
import "server-only";
import { getBankClient } from "../bank-client/index.ts";
import { config } from "../config.ts";
import { getDashboardDb } from "../db/client.ts";
import { deliverMail } from "../inbox/digest.ts";
import { createLogger } from "../server/log.ts";
import { runStatementSubscriptions } from "./subscriptions.ts";

const log = createLogger("statements");
const KEY = Symbol.for("treasury.statementSubscriptions");
const g = globalThis as { [KEY]?: NodeJS.Timeout };

export function startStatementSubscriptions(): void {
  const c = config();
  if (g[KEY] || !c.bankApiUrl || !c.bankSubscriptionKey) return;
  let busy = false;
  const look = async () => {
    if (busy) return;
    busy = true;
    try {
      const db = await getDashboardDb();
      const out = await runStatementSubscriptions(db, await getBankClient(), {
        timeZone: c.timeZone,
        mail: { smtpUrl: c.smtpUrl, from: c.mailFrom },
      });
      if (out.delivered || out.failed) log.info("statement subscriptions run", { ...out });
      // The people told of a delivery given up.
      if (out.gaveUp) await deliverMail(db, { smtpUrl: c.smtpUrl, from: c.mailFrom });
    } catch (err) {
      log.warn("statement subscriptions: a run failed; the next one tries again", { err: String(err) });
    } finally {
      busy = false;
    }
  };
  g[KEY] = setInterval(() => void look(), c.scheduleRunSeconds * 1000);
  g[KEY].unref();
}

export function stopStatementSubscriptions(): void {
  if (g[KEY]) clearInterval(g[KEY]);
  g[KEY] = undefined;
}
