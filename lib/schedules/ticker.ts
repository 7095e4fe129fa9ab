// Each dashboard instance runs the scheduled payments every SCHEDULE_RUN_SECONDS for the bank's
// business date (its clock, which the sandbox moves). Instances running at once share the work:
// each occurrence is claimed by one run and paid once under its key.
import "server-only";
import { getBankClient } from "../bank-client/index.ts";
import { config } from "../config.ts";
import { getDashboardDb } from "../db/client.ts";
import { createLogger } from "../server/log.ts";
import { startTicker, stopTicker } from "../server/ticker.ts";
import { runSchedules } from "./engine.ts";
import { scheduleToday } from "./requests.ts";

const log = createLogger("schedules");
const NAME = "scheduled payments";

/** One run now (the ticker's, and a page's "run now" after the sandbox clock moved). */
export async function runSchedulesNow(): Promise<void> {
  const db = await getDashboardDb();
  const bank = await getBankClient();
  const out = await runSchedules(db, bank, { today: await scheduleToday() });
  if (out.written || out.sent || out.queued || out.failed) log.info("scheduled payments run", { ...out });
}

export const startScheduleRuns = () => startTicker(NAME, config().scheduleRunSeconds, log, runSchedulesNow);
export const stopScheduleRuns = () => stopTicker(NAME);
