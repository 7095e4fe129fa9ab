// GET /api/profile/totp - second-factor status; POST - start enrolment (secret + otpauth URL); DELETE - turn it off with a current code
import { checkProof, WRONG_CODE } from "@/lib/api/proof.ts";
import { withRoute } from "@/lib/api/route.ts";
import { appendAudit, auditActor } from "@/lib/auth/audit.ts";
import { forgetCachedUser } from "@/lib/auth/session-token.ts";
import { checkTotp, newTotpSecret, totpUri } from "@/lib/auth/totp.ts";
import { disableTotp, findUserById, setPendingTotp } from "@/lib/auth/users.ts";
import { TotpCodeBody, TotpEnrolment, TotpStatus } from "@/lib/dashboard-api/index.ts";

export const GET = withRoute(
  async ({ db, user }): Promise<TotpStatus> => {
    const row = await findUserById(db, user.id);
    return { enabled: !!row?.totp_secret, pending: !!row?.totp_pending_secret };
  },
  { response: TotpStatus },
);

export const POST = withRoute(
  async ({ db, user, ip }): Promise<TotpEnrolment> => {
    const secret = newTotpSecret();
    await setPendingTotp(db, user.id, secret);
    await appendAudit(db, {
      ...auditActor(user, ip),
      action: "totp.enrol_start",
      target: user.email,
      result: "ok",
    });
    return { secret, otpauthUrl: totpUri(user.email, secret) };
  },
  { response: TotpEnrolment },
);

export const DELETE = withRoute(
  async ({ db, user, body, actor }): Promise<TotpStatus> => {
    const row = await findUserById(db, user.id);
    if (!row?.totp_secret) return { enabled: false, pending: false };
    const ok = (await checkTotp(row.totp_secret, body.code, row.totp_last_step)) !== null;
    await checkProof(db, actor, "totp.disable", ok, WRONG_CODE);
    await disableTotp(db, user.id);
    forgetCachedUser(user.id);
    return { enabled: false, pending: false };
  },
  { body: TotpCodeBody, response: TotpStatus },
);
