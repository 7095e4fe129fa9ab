// Whether a user may cast a vote that moves money yet: not within a day of their credentials being
// reset or their invitation, since whoever arranged that may be the one now holding the account.
// Pure: the caller reads the user's last credential event and the clock, so every path that
// counts a vote (casting it, and checking it again when the deciding vote lands) asks the same way.

/** How long after an invitation, a reset or a second factor removed by link a user cannot vote. */
export const CREDENTIAL_EMBARGO_MS = 24 * 60 * 60 * 1000;

/**
 * The instant until which the user cannot cast a vote that moves money, or null when they can.
 * `lastCredentialEventAt`: when the user was last invited, had their password reset, set a
 * password through a one-time link, or had a second factor removed by link (null: never).
 */
export function credentialEmbargoUntil(
  lastCredentialEventAt: Date | string | number | null | undefined,
  now: Date | number,
): Date | null {
  if (lastCredentialEventAt === null || lastCredentialEventAt === undefined) return null;
  const at = new Date(lastCredentialEventAt).getTime();
  // An unreadable time is treated as just now: the rule fails closed.
  const from = Number.isFinite(at) ? at : new Date(now).getTime();
  const until = from + CREDENTIAL_EMBARGO_MS;
  return until > new Date(now).getTime() ? new Date(until) : null;
}
