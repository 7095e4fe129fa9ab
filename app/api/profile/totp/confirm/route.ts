// POST /api/profile/totp/confirm - finish enrolment with a code from the app; sign-in then asks for a code
import { invalid } from "@/lib/api/errors.ts";
import { withRoute } from "@/lib/api/route.ts";
import { appendAudit, auditActor } from "@/lib/auth/audit.ts";
import { forgetCachedUser } from "@/lib/auth/session-token.ts";
import { checkTotp } from "@/lib/auth/totp.ts";
import { enableTotp, findUserById } from "@/lib/auth/users.ts";
import { TotpCodeBody, TotpStatus } from "@/lib/dashboard-api/index.ts";

export const POST = withRoute(
  async ({ db, user, body, ip }): Promise<TotpStatus> => {
    const row = await findUserById(db, user.id);
    if (!row?.totp_pending_secret)
      throw invalid(
        [{ field: "code", message: "start the set-up first" }],
        "There is no set-up in progress.",
      );
    const step = await checkTotp(row.totp_pending_secret, body.code);
    await appendAudit(db, {
      ...auditActor(user, ip),
      action: "totp.enable",
      target: user.email,
      result: step !== null ? "ok" : "refused: wrong code",
    });
    if (step === null)
      throw invalid(
        [{ field: "code", message: "is not the current code from your app" }],
        "That code did not match.",
      );
    await enableTotp(db, user.id, row.totp_pending_secret, step);
    forgetCachedUser(user.id);
    return { enabled: true, pending: false };
  },
  { body: TotpCodeBody, response: TotpStatus },
);
