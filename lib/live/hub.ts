// Live balances (docs/decisions.md, "Live balances"): the bank's balance notifications, received by this
// dashboard process, fanned out to the browsers connected to it over Server-Sent Events.
import "server-only";
import { EventEmitter } from "node:events";

export interface BalanceEvent {
  accountNumber: string;
  availableCents: number;
  previousCents: number;
  /** The notification's webhook-id: the same across the bank's retries. */
  id: string;
}

const KEY = Symbol.for("treasury.liveHub");
type Holder = { [KEY]?: { emitter: EventEmitter; seen: Set<string> } };

function hub() {
  const g = globalThis as Holder;
  if (!g[KEY]) {
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    g[KEY] = { emitter, seen: new Set() };
  }
  return g[KEY];
}

/** Passes a notification to every subscriber, once per webhook-id (the bank may retry). */
export function publishBalance(e: BalanceEvent): boolean {
  const h = hub();
  if (h.seen.has(e.id)) return false;
  if (h.seen.size > 10_000) h.seen.clear();
  h.seen.add(e.id);
  h.emitter.emit("balance", e);
  return true;
}

export function onBalance(fn: (e: BalanceEvent) => void): () => void {
  const h = hub();
  h.emitter.on("balance", fn);
  return () => h.emitter.off("balance", fn);
}
