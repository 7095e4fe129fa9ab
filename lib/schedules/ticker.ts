// Each dashboard instance runs the scheduled payments every SCHEDULE_RUN_SECONDS for the bank's
// business date (its clock, which the sandbox moves). Instances running at once share the work:
// each occurrence is claimed by one run and paid once under its key.
import "server-only";
import { getBankClient } from "../bank-client/index.ts";
import { config } from "../config.ts";
import { getDashboardDb } from "../db/client.ts";
import { createLogger } from "../server/log.ts";
import { runSchedules } from "./engine.ts";
import { bankToday } from "./requests.ts";

const log = createLogger("schedules");
const KEY = Symbol.for("treasury.scheduleRuns");
const g = globalThis as { [KEY]?: NodeJS.Timeout };

/** One run now (the ticker's, and a page's "run now" after the sandbox clock moved). */
export async function runSchedulesNow(): Promise<void> {
  const db = await getDashboardDb();
  const bank = await getBankClient();
  const out = await runSchedules(db, bank, { today: await bankToday(bank) });
  if (out.written || out.sent || out.queued || out.failed) log.info("scheduled payments run", { ...out });
}

export function startScheduleRuns(): void {
  const c = config();
  if (g[KEY] || !c.bankApiUrl || !c.bankSubscriptionKey) return;
  let busy = false;
  const look = async () => {
    if (busy) return;
    busy = true;
    try {
      await runSchedulesNow();
    } catch (err) {
      log.warn("scheduled payments: a run failed; the next one tries again", { err: String(err) });
    } finally {
      busy = false;
    }
  };
  g[KEY] = setInterval(() => void look(), c.scheduleRunSeconds * 1000);
  g[KEY].unref();
}

export function stopScheduleRuns(): void {
  if (g[KEY]) clearInterval(g[KEY]);
  g[KEY] = undefined;
}
