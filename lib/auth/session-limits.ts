// Session timing (docs/decisions.md, "Sign-in"): idle sign-out with a warning, and an absolute limit.
import { config } from "../config.ts";

export interface SessionSettings {
  idleSeconds: number;
  /** How long before the idle sign-out the warning shows (at most half the idle time). */
  warningSeconds: number;
  /** A session ends this long after sign-in however active it is. */
  absoluteSeconds: number;
}

export function sessionSettings(): SessionSettings {
  const { sessionIdleSeconds: idleSeconds, sessionIdleWarningSeconds: warning } = config();
  return {
    idleSeconds,
    warningSeconds: Math.max(1, Math.min(warning, Math.floor(idleSeconds / 2))),
    absoluteSeconds: 12 * 60 * 60,
  };
}

/** Failed sign-ins before an account is locked, and for how long. */
export const LOCKOUT = { attempts: 10, minutes: 30 } as const;

/** Sign-in attempts allowed per client address per minute. */
export function signInRateLimit(): number {
  return config().signInRateLimitPerMinute;
}
