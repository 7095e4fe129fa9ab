// The signed-in user and the idle guard's timing (app/api/me, app/api/session). Written with zod's
// tree-shakable build, as every schema a page's form carries to the browser.
import * as z from "zod/mini";
import { PASSWORD_MIN_LENGTH } from "../auth/password-rules.ts";
import { ROLES } from "../auth/permissions.ts";

export const SessionUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  totpEnabled: z.boolean(),
  /**
   * The password was set by an administrator (a reset, or a new account): only /change-password
   * and the route that changes it are open until it changes.
   */
  resetPending: z.boolean(),
  /**
   * ISO instant until which the user casts no vote that moves money (invited, or credentials
   * reset, in the last 24 hours); null when they may.
   */
  votesEmbargoedUntil: z.optional(z.nullable(z.string())),
});
export type SessionUser = z.infer<typeof SessionUser>;

// GET /api/session: the idle guard's timing.
export const SessionTiming = z.object({
  idleSeconds: z.int(),
  warningSeconds: z.int(),
  /** ISO instant of the last activity the server recorded. */
  lastActivity: z.string(),
  signedInAt: z.string(),
  /** ISO instant the 12-hour limit ends the session. */
  absoluteDeadline: z.string(),
});
export type SessionTiming = z.infer<typeof SessionTiming>;

// POST /api/profile/totp/confirm: a code from the authenticator app.
export const TotpCodeBody = z.object({
  code: z.string().check(z.trim(), z.regex(/^\d{6}$/, "must be the 6-digit code")),
});
export type TotpCodeBody = z.infer<typeof TotpCodeBody>;

// DELETE /api/profile/totp: turning the second factor off weakens sign-in, so it takes both
// factors again: the password and a current code.
export const TotpDisableBody = z.object({
  currentPassword: z
    .string()
    .check(z.minLength(1, "enter your password"), z.maxLength(1024, "must be at most 1,024 characters")),
  code: z.string().check(z.trim(), z.regex(/^\d{6}$/, "must be the 6-digit code")),
});
export type TotpDisableBody = z.infer<typeof TotpDisableBody>;

/** A 6-digit code, or "" for a field left empty. */
const optionalCode = z.optional(
  z.string().check(
    z.trim(),
    z.refine((s) => s === "" || /^\d{6}$/.test(s), "must be the 6-digit code"),
  ),
);

// POST /api/profile/totp: start a set-up, proven by the password. With the second factor on, this
// replaces its device and needs a current code from the app too (a lost device goes through an
// administrator's one-time link).
export const TotpStartBody = z.object({
  currentCode: optionalCode,
  currentPassword: z
    .string()
    .check(z.minLength(1, "enter your password"), z.maxLength(1024, "must be at most 1,024 characters")),
});
export type TotpStartBody = z.infer<typeof TotpStartBody>;

// GET /api/profile/totp
export const TotpStatus = z.object({ enabled: z.boolean(), pending: z.boolean() });
export type TotpStatus = z.infer<typeof TotpStatus>;

// POST /api/profile/password: replace one's own password (the current one proves who asks).
export const ChangePasswordBody = z
  .object({
    currentPassword: z.string().check(z.minLength(1, "Enter your current password.")),
    newPassword: z
      .string()
      .check(
        z.minLength(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`),
        z.maxLength(200, "Use at most 200 characters."),
      ),
    confirmPassword: z.string(),
  })
  .check(
    z.refine((b) => b.newPassword === b.confirmPassword, {
      message: "The two new passwords differ.",
      path: ["confirmPassword"],
    }),
    z.refine((b) => b.newPassword !== b.currentPassword, {
      message: "Choose a password other than the current one.",
      path: ["newPassword"],
    }),
  );
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const ChangePasswordResponse = z.object({ changed: z.literal(true) });
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponse>;

// POST /api/profile/totp: the secret to enter in an authenticator app, shown until confirmed.
export const TotpEnrolment = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TotpEnrolment = z.infer<typeof TotpEnrolment>;
