// The dashboard's life under a load balancer: readiness, the requests in flight, and a graceful
// stop. `next start` on SIGTERM closes its listener, waits for every open connection (a live event
// stream never ends by itself) and exits 143; `npm start` therefore runs it with
// NEXT_MANUAL_SIG_HANDLE=true and this stop takes over (instrumentation.ts): readiness answers 503
// at once; after the drain delay the server stops accepting connections and each answer closes its
// connection, new API requests are refused with 503; those in flight finish (up to the shutdown
// timeout); the live hub and the database close; once every connection has closed, the process
// exits 0: no client has its connection reset under it.
import { config } from "../config.ts";
import { httpFront } from "../server/http-front.ts";
import { createLogger } from "../server/log.ts";

const log = createLogger("lifecycle");

interface State {
  /** Readiness answers 503 (a stop has begun). */
  draining: boolean;
  /** New API requests are refused (the drain delay is over). */
  refusing: boolean;
  inFlight: number;
}

// One state per process (kept on globalThis): route bundles may load this module more than once.
const KEY = Symbol.for("treasury.lifecycle");
const g = globalThis as { [KEY]?: State };
const state = (): State => {
  g[KEY] ??= { draining: false, refusing: false, inFlight: 0 };
  return g[KEY];
};

export const isDraining = () => state().draining;
export const isRefusing = () => state().refusing;

/** Runs one request's handler, counted as in flight until it has its answer. */
export async function trackRequest<T>(fn: () => Promise<T>): Promise<T> {
  const s = state();
  s.inFlight++;
  try {
    return await fn();
  } finally {
    s.inFlight--;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The graceful stop; a second signal, or a stop that outlives its bound, exits at once. */
export async function stopGracefully(
  closeResources: () => Promise<void>,
  exit: (code: number) => void = process.exit,
): Promise<void> {
  const s = state();
  if (s.draining) return exit(1);
  s.draining = true;
  const { drainDelayMs, shutdownTimeoutMs } = config();
  const bound = setTimeout(() => exit(1), drainDelayMs + shutdownTimeoutMs + 10_000);
  bound.unref();
  log.info("stopping: readiness answers 503; requests in flight finish", {
    inFlight: s.inFlight,
    drainDelayMs,
  });
  await sleep(drainDelayMs);
  s.refusing = true;
  const front = httpFront();
  front?.stopAccepting();
  const deadline = Date.now() + shutdownTimeoutMs;
  while (s.inFlight > 0 && Date.now() < deadline) await sleep(20);
  // Pages and sign-in too (the wrappers count only API routes); event streams end with the hub.
  await front?.answered(Math.max(0, deadline - Date.now()));
  if (s.inFlight > 0) log.warn("stopping with requests unanswered", { inFlight: s.inFlight });
  try {
    await closeResources();
  } catch (e) {
    log.error("stopping: a resource did not close", { err: e });
  }
  // Idle kept-alive connections close by themselves within a second or two of the last answer.
  await front?.closed(5_000);
  log.info("stopped");
  exit(0);
}
