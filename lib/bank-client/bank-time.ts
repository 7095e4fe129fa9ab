// The bank's "now" as its answers tell it (their `Date` header): the bank's business day decides
// what "today" is (history's default range, the morning check, what is due), and a sandbox bank's
// clock may run days ahead of this machine's. A difference under two seconds is taken as none, so
// that the header's one-second grain never moves a day boundary against a real bank.
const NEGLIGIBLE_MS = 2_000;

// Kept on globalThis: Next bundles the server's entry points (instrumentation, each route)
// apart, and a module-level value would be one per bundle, so a route could read this machine's
// clock while the shared bank client, made by another bundle, noted the bank's elsewhere.
const KEY = Symbol.for("treasury.bankTimeOffsetMs");
const g = globalThis as { [KEY]?: number };

/** Notes the bank's `Date` header of an answer to a request sent at `sentAt` and answered at `receivedAt`. */
export function noteBankDate(
  header: string | string[] | undefined,
  sentAt: number,
  receivedAt: number,
): void {
  const text = Array.isArray(header) ? header[0] : header;
  if (!text) return;
  const bankSecond = Date.parse(text);
  if (Number.isNaN(bankSecond)) return;
  // The header's second began somewhere in the round trip: take its middle, half a second in.
  const offset = bankSecond + 500 - (sentAt + receivedAt) / 2;
  g[KEY] = Math.abs(offset) < NEGLIGIBLE_MS ? 0 : Math.round(offset);
}

/** The bank's current time, as last told; this machine's clock until the bank has answered. */
export function bankNow(): Date {
  return new Date(Date.now() + bankOffsetMs());
}

/** How far the bank's clock runs ahead of this machine's (ms), as last told; 0 until then. */
export function bankOffsetMs(): number {
  return g[KEY] ?? 0;
}

/** Whether a bank answer has told the bank's time in this process yet. */
export function bankTimeKnown(): boolean {
  return g[KEY] !== undefined;
}
