// POST /api/profile/totp/confirm - finish enrolment (or a replacement) with a code from the app;
// sign-in then asks for a code from it. A secret pending beside a live one was set only with a
// proof (POST /api/profile/totp), so the confirmation needs none of its own.
import { invalid } from "@/lib/api/errors.ts";
import { checkProof, WRONG_CODE } from "@/lib/api/proof.ts";
import { withRoute } from "@/lib/api/route.ts";
import { forgetCachedUser } from "@/lib/auth/session-token.ts";
import { checkTotp } from "@/lib/auth/totp.ts";
import { enableTotp, findUserById } from "@/lib/auth/users.ts";
import { TotpCodeBody, TotpStatus } from "@/lib/dashboard-api/index.ts";

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
    await enableTotp(db, user.id, row.totp_pending_secret, step as number);
    forgetCachedUser(user.id);
    return { enabled: true, pending: false };
  },
  { body: TotpCodeBody, response: TotpStatus },
);
