// The signed-in user and the idle guard's timing (app/api/me, app/api/session).
import { z } from "zod";
import { ROLES } from "../auth/permissions.ts";

export const SessionUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  totpEnabled: z.boolean(),
});
export type SessionUser = z.infer<typeof SessionUser>;

// GET /api/session: the idle guard's timing.
export const SessionTiming = z.object({
  idleSeconds: z.number().int(),
  warningSeconds: z.number().int(),
  /** ISO instant of the last activity the server recorded. */
  lastActivity: z.string(),
  signedInAt: z.string(),
  /** ISO instant the 12-hour limit ends the session. */
  absoluteDeadline: z.string(),
});
export type SessionTiming = z.infer<typeof SessionTiming>;

// GET /api/profile/totp
export const TotpStatus = z.object({ enabled: z.boolean(), pending: z.boolean() });
export type TotpStatus = z.infer<typeof TotpStatus>;

// POST /api/profile/totp: the secret to enter in an authenticator app, shown until confirmed.
export const TotpEnrolment = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TotpEnrolment = z.infer<typeof TotpEnrolment>;
