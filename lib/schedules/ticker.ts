// Each dashboard instance runs the scheduled payments and the sweeps every SCHEDULE_RUN_SECONDS
// for the bank's business date and time (its clock, which the sandbox moves). Instances running at
// once share the work: each occurrence and each sweep slot is claimed by one run and paid once
// under its key. A balance notification that crosses a sweep's band runs that sweep at once. Each
// run then looks for shortfalls of the balance ahead and e-mails a new one once (shortfall-mail.ts).
import "server-only";
import { bankNow } from "../bank-client/bank-time.ts";
import { getBankClient } from "../bank-client/index.ts";
import { config } from "../config.ts";
import { getDashboardDb } from "../db/client.ts";
import { createLogger } from "../server/log.ts";
import { startTicker, stopTicker } from "../server/ticker.ts";
import { runSchedules } from "./engine.ts";
import { scheduleToday } from "./requests.ts";
import { lookForShortfalls } from "./shortfall-mail.ts";
import { type BalanceCrossing, runSweeps, runSweepsOnCrossing } from "./sweep-engine.ts";

const log = createLogger("schedules");
const NAME = "scheduled payments";

/** One run now (the ticker's, and a page's "run now" after the sandbox clock moved). */
export async function runSchedulesNow(): Promise<void> {
  const db = await getDashboardDb();
  const bank = await getBankClient();
  const today = await scheduleToday();
  const out = await runSchedules(db, bank, { today });
  if (out.written || out.sent || out.queued || out.failed) log.info("scheduled payments run", { ...out });
  const swept = await runSweeps(db, bank, { today, time: bankTimeOfDay(config().timeZone) });
  if (swept.moved || swept.failed || swept.short) log.info("sweeps run", { ...swept });
  try {
    const told = await lookForShortfalls(db, bank, { publicUrl: config().publicUrl });
    if (told?.told.length)
      log.info("shortfalls e-mailed", { shortfalls: told.told, mails: told.mails.length });
  } catch (err) {
    log.warn("balance ahead: the look for shortfalls failed; the next run looks again", { err: String(err) });
  }
}

/** HH:MM on the bank's clock in its time zone. */
export function bankTimeOfDay(timeZone: string, at = bankNow()): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at);
}

/** Runs the sweeps a stored balance notification concerns, if it crossed their band; never throws. */
export async function sweepOnBalance(n: Omit<BalanceCrossing, "today">): Promise<void> {
  try {
    const db = await getDashboardDb();
    // Most notifications concern no sweep: nothing more is asked of the bank for them.
    const kept = await db.query("SELECT 1 FROM sweeps WHERE account = $1 AND status = 'active' LIMIT 1", [
      n.accountNumber,
    ]);
    if (!kept[0]) return;
    const out = await runSweepsOnCrossing(db, await getBankClient(), { ...n, today: await scheduleToday() });
    if (out.moved || out.failed || out.short) log.info("sweeps run on a balance crossing", { ...out });
  } catch (err) {
    log.warn("sweeps: a crossing run failed; the day's run tries again", { err: String(err) });
  }
}

export const startScheduleRuns = () => startTicker(NAME, config().scheduleRunSeconds, log, runSchedulesNow);
export const stopScheduleRuns = () => stopTicker(NAME);
