// POST /api/profile/totp/confirm - finish enrolment (or a replacement) with a code from the app;
// sign-in then asks for a code from it; the person is e-mailed that it changed. A secret pending beside a live one was set only with a
// proof (POST /api/profile/totp), so the confirmation needs none of its own.

import { enableTotp } from "@/lib/auth/second-factor.ts";
import { tellSecondFactorChange } from "@/lib/auth/second-factor-mail.ts";
import { forgetCachedUser } from "@/lib/auth/session-token.ts";
import { checkTotp } from "@/lib/auth/totp.ts";
import { findUserById } from "@/lib/auth/users.ts";
import { TotpCodeBody, TotpStatus } from "@/lib/dashboard-api/index.ts";
import { sendMailSoon } from "@/lib/inbox/send-soon.ts";
import { invalid } from "@/lib/route-kit/errors.ts";
import { checkProof, WRONG_CODE } from "@/lib/route-kit/proof.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(
  async ({ db, user, body, actor }): Promise<TotpStatus> => {
    const row = await findUserById(db, user.id);
    if (!row?.totp_pending_secret)
      throw invalid(
        [{ field: "code", message: "start the set-up first" }],
        "There is no set-up in progress.",
      );
    const step = await checkTotp(row.totp_pending_secret, body.code);
    const action = row.totp_secret ? "totp.replace" : "totp.enable";
    await checkProof(db, actor, action, step !== null, WRONG_CODE);
    // A wrong code was refused above: here the step is the code's.
    const pending = row.totp_pending_secret;
    await db.tx(async (q) => {
      await enableTotp(q, user.id, pending, step as number);
      await tellSecondFactorChange(q, user, row.totp_secret ? "moved to a new device" : "turned on");
    });
    sendMailSoon();
    forgetCachedUser(user.id);
    return { enabled: true, pending: false };
  },
  { body: TotpCodeBody, response: TotpStatus },
);
