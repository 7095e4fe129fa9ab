// Session timing (docs/decisions.md, "Sign-in"): idle sign-out with a warning, and an absolute limit.

export interface SessionSettings {
  idleSeconds: number;
  /** How long before the idle sign-out the warning shows (at most half the idle time). */
  warningSeconds: number;
  /** A session ends this long after sign-in however active it is. */
  absoluteSeconds: number;
}

function positive(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === "") return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, got "${v}"`);
  return n;
}

export function sessionSettings(): SessionSettings {
  const idleSeconds = positive("SESSION_IDLE_SECONDS", 900);
  const warning = positive("SESSION_IDLE_WARNING_SECONDS", 120);
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
  return positive("SIGN_IN_RATE_LIMIT_PER_MINUTE", 30);
}
