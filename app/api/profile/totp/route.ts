// GET /api/profile/totp - second-factor status; POST - start enrolment (secret + otpauth URL) proven
// by the password, or a replacement of the device proven by the password and a current code (each
// under the sign-in's rate limit and lockout); DELETE - turn it off with the password and a current
// code, under the sign-in's rate limit and lockout. Each change is e-mailed to the person.

import { verifyPassword } from "@/lib/auth/passwords.ts";
import { disableTotp, proveCurrentCode, setPendingTotp } from "@/lib/auth/second-factor.ts";
import { tellSecondFactorChange } from "@/lib/auth/second-factor-mail.ts";
import { forgetCachedUser } from "@/lib/auth/session-token.ts";
import { newTotpSecret, totpUri } from "@/lib/auth/totp.ts";
import { findUserById } from "@/lib/auth/users.ts";
import { TotpDisableBody, TotpEnrolment, TotpStartBody, TotpStatus } from "@/lib/dashboard-api/index.ts";
import { sendMailSoon } from "@/lib/inbox/send-soon.ts";
import { invalid, RouteError } from "@/lib/route-kit/errors.ts";
import { checkProofUnderLimits, type Refusal, WRONG_CODE } from "@/lib/route-kit/proof.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const GET = withRoute(
  async ({ db, user }): Promise<TotpStatus> => {
    const row = await findUserById(db, user.id);
    return { enabled: !!row?.totp_secret, pending: !!row?.totp_pending_secret };
  },
  { response: TotpStatus },
);

// A session alone must not attach or move the second factor: whoever holds a stolen session would
// then own both factors and lock the owner out. Enrolling takes the password; replacing takes the
// password and a current code from the device in use (a lost device goes through an
// administrator's one-time link, app/api/admin/users/[id]/remove-second-factor).
const CODE_MISSING = invalid(
  [{ field: "currentCode", message: "enter the current code from your app" }],
  "Moving two-step sign-in needs your password and a current code. Lost the device? An administrator can e-mail you a link to remove it.",
);
const WRONG_CURRENT_CODE: Refusal = { ...WRONG_CODE, field: "currentCode" };
const WRONG_PASSWORD: Refusal = {
  field: "currentPassword",
  message: "is not your current password",
  summary: "The password is not right.",
  reason: "wrong password",
};

export const POST = withRoute(
  async ({ db, user, body, actor }): Promise<TotpEnrolment> => {
    const row = await findUserById(db, user.id);
    if (!row) throw new RouteError(401, "unauthenticated", "Sign in again.");
    const secret = newTotpSecret();
    const password = body.currentPassword;
    if (row.totp_secret) {
      const code = body.currentCode ?? "";
      if (!code) throw CODE_MISSING;
      await checkProofUnderLimits(db, actor, row, "totp.replace_start", WRONG_PASSWORD, async () => {
        if (!(await verifyPassword(row.password_hash, password))) return WRONG_PASSWORD;
        return (await proveCurrentCode(db, row, code)) || WRONG_CURRENT_CODE;
      });
      await setPendingTotp(db, user.id, secret, true);
    } else {
      await checkProofUnderLimits(db, actor, row, "totp.enrol_start", WRONG_PASSWORD, () =>
        verifyPassword(row.password_hash, password),
      );
      // Turned on by another tab since the row was read: replacing it needs a current code.
      if (!(await setPendingTotp(db, user.id, secret))) throw CODE_MISSING;
    }
    return { secret, otpauthUrl: totpUri(user.email, secret) };
  },
  { body: TotpStartBody, response: TotpEnrolment },
);

// Turning it off weakens sign-in, so a session alone (or a session and a code read over a
// shoulder) must not do it: the password and a current code, each guess counted as a sign-in's.
export const DELETE = withRoute(
  async ({ db, user, body, actor }): Promise<TotpStatus> => {
    const row = await findUserById(db, user.id);
    if (!row?.totp_secret) return { enabled: false, pending: false };
    await checkProofUnderLimits(
      db,
      actor,
      row,
      "totp.disable",
      WRONG_PASSWORD,
      async () => {
        if (!(await verifyPassword(row.password_hash, body.currentPassword))) return WRONG_PASSWORD;
        // The code is used up: it cannot prove anything again.
        return (await proveCurrentCode(db, row, body.code)) || WRONG_CODE;
      },
      "Two-step sign-in stays on.",
    );
    await db.tx(async (q) => {
      await disableTotp(q, user.id);
      await tellSecondFactorChange(q, user, "turned off");
    });
    sendMailSoon();
    forgetCachedUser(user.id);
    return { enabled: false, pending: false };
  },
  { body: TotpDisableBody, response: TotpStatus },
);
