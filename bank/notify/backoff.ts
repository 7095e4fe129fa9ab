// When a failed delivery is tried again: exponential backoff with full jitter (a random delay
// up to base * 2^(attempt-1), capped), so that a receiver coming back is not hit by every
// notification at the same instant; the bank keeps trying for at least a day.

/** No two attempts further apart than this. */
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
/** A notification is given up (state `failed`) after a failed attempt this long after it was written. */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

export function retryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
  return Math.round(random() * ceiling);
}

/** After a failed attempt at `now`: the next attempt's time, or null to give up. */
export function nextAttemptAt(createdAt: Date, now: Date, attempt: number, baseMs: number): Date | null {
  if (now.getTime() - createdAt.getTime() >= RETRY_WINDOW_MS) return null;
  return new Date(now.getTime() + retryDelayMs(attempt, baseMs));
}
