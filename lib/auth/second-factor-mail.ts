// Every change to a person's second factor is e-mailed to them: a device attached or moved by
// someone holding their session and password is then seen by the person it locks out.
import type { Queryable } from "../db/client.ts";
import { queueMail } from "../inbox/mail-outbox.ts";

export async function tellSecondFactorChange(
  q: Queryable,
  user: { email: string; name: string },
  what: "turned on" | "moved to a new device" | "turned off",
): Promise<void> {
  await queueMail(q, {
    to: user.email,
    subject: `Your two-step sign-in was ${what}`,
    kind: "credential.second_factor",
    text: [
      `Hello ${user.name},`,
      "",
      `Your Treasury two-step sign-in was ${what} just now.`,
      "If this was not you, tell your administrator at once: they can end your sessions and send you a link to reset your password.",
    ].join("\n"),
  });
}
