// GET /api/profile/totp - second-factor status; POST - start enrolment (secret + otpauth URL), or
// a replacement of the device proven by a current code or the password (each under the sign-in's
// rate limit and lockout); DELETE - turn it off with
// the password and a current code, under the sign-in's rate limit and lockout
import { invalid } from "@/lib/api/errors.ts";
import { checkProofUnderLimits, type Refusal, WRONG_CODE } from "@/lib/api/proof.ts";
import { withRoute } from "@/lib/api/route.ts";
import { appendAudit, auditActor } from "@/lib/auth/audit.ts";
import { verifyPassword } from "@/lib/auth/passwords.ts";
import { forgetCachedUser } from "@/lib/auth/session-token.ts";
import { checkTotp, newTotpSecret, totpUri } from "@/lib/auth/totp.ts";
import { disableTotp, findUserById, setPendingTotp } from "@/lib/auth/users.ts";
import { TotpDisableBody, TotpEnrolment, TotpStartBody, TotpStatus } from "@/lib/dashboard-api/index.ts";

export const GET = withRoute(
  async ({ db, user }): Promise<TotpStatus> => {
    const row = await findUserById(db, user.id);
    return { enabled: !!row?.totp_secret, pending: !!row?.totp_pending_secret };
  },
  { response: TotpStatus },
);

// A session alone must not move the second factor to another device: whoever holds a stolen
// session would then own both factors.
const PROOF_MISSING = invalid(
  [{ field: "currentCode", message: "enter the current code from your app, or your password" }],
  "Replacing your authenticator needs a current code from it, or your password.",
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
    const secret = newTotpSecret();
    if (row?.totp_secret) {
      const code = body.currentCode ?? "";
      const password = body.currentPassword ?? "";
      if (!code && !password) throw PROOF_MISSING;
      let provenStep: number | null = null;
      const secretInUse = row.totp_secret;
      if (code)
        await checkProofUnderLimits(db, actor, row, "totp.replace_start", WRONG_CURRENT_CODE, async () => {
          provenStep = await checkTotp(secretInUse, code, row.totp_last_step);
          return provenStep !== null;
        });
      else
        await checkProofUnderLimits(db, actor, row, "totp.replace_start", WRONG_PASSWORD, () =>
          verifyPassword(row.password_hash, password),
        );
      await setPendingTotp(db, user.id, secret, { provenStep });
    } else {
      // Turned on by another tab since the row was read: that one is now the device to prove with.
      if (!(await setPendingTotp(db, user.id, secret))) throw PROOF_MISSING;
      await appendAudit(db, {
        ...auditActor(user, actor.ip),
        action: "totp.enrol_start",
        target: user.email,
        result: "ok",
      });
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
    const secretInUse = row.totp_secret;
    await checkProofUnderLimits(
      db,
      actor,
      row,
      "totp.disable",
      WRONG_PASSWORD,
      async () => {
        if (!(await verifyPassword(row.password_hash, body.currentPassword))) return WRONG_PASSWORD;
        const step = await checkTotp(secretInUse, body.code, row.totp_last_step);
        if (step === null) return WRONG_CODE;
        // The code is used up: it cannot prove anything again.
        await db.query("UPDATE users SET totp_last_step = $2 WHERE id = $1", [row.id, step]);
        return true;
      },
      "Two-step sign-in stays on.",
    );
    await disableTotp(db, user.id);
    forgetCachedUser(user.id);
    return { enabled: false, pending: false };
  },
  { body: TotpDisableBody, response: TotpStatus },
);
