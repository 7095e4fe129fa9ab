// POST /api/profile/totp/confirm - finish enrolment with a code from the app; sign-in then asks for a code
import { z } from "zod";
import { invalid } from "@/lib/api/errors";
import { withRoute } from "@/lib/api/route";
import { appendAudit } from "@/lib/auth/audit";
import { forgetCachedUser } from "@/lib/auth/session-token";
import { checkTotp } from "@/lib/auth/totp";
import { enableTotp, findUserById } from "@/lib/auth/users";
import { TotpStatus } from "@/lib/dashboard-api/index.ts";

const codeBody = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "must be the 6-digit code"),
});

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
      actorId: user.id,
      actorEmail: user.email,
      action: "totp.enable",
      target: user.email,
      result: step !== null ? "ok" : "refused: wrong code",
      ip,
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
  { body: codeBody, response: TotpStatus },
);
