// A background task each dashboard instance repeats every few seconds (the schedule run, the
// approval digest): one look at a time (a slow look is not overlapped by the next), a failed look
// logged and tried again next time, kept on globalThis so that Next's separate bundles start it once.
import "server-only";
import { config } from "../config.ts";
import type { Logger } from "./log.ts";

type Handle = { timer?: NodeJS.Timeout };

function handle(name: string): Handle {
  const key = Symbol.for(`treasury.ticker.${name}`);
  const g = globalThis as { [k: symbol]: Handle | undefined };
  g[key] ??= {};
  return g[key];
}

/** Starts `look` every `seconds` on this instance, once; nothing without a bank to speak to. */
export function startTicker(name: string, seconds: number, log: Logger, look: () => Promise<void>): void {
  const h = handle(name);
  const c = config();
  if (h.timer || !c.bankApiUrl || !c.bankSubscriptionKey) return;
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      await look();
    } catch (err) {
      log.warn(`${name}: a look failed; the next one tries again`, { err: String(err) });
    } finally {
      busy = false;
    }
  };
  h.timer = setInterval(() => void tick(), seconds * 1000);
  h.timer.unref();
}

export function stopTicker(name: string): void {
  const h = handle(name);
  if (h.timer) clearInterval(h.timer);
  h.timer = undefined;
}
