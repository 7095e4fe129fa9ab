// One-time links e-mailed to a person, so that no administrator ever sets, sees or receives another
// person's password: an invitation (the new user chooses their first password), a reset (the old
// password stops working and every session ends; the person chooses a new one) and the removal of
// a second factor for a lost device (the person proves their password). Only the token's SHA-256 is
// stored; each link works once, before it expires, and is delivered through the dashboard's outbox
// (DASHBOARD_SMTP_URL, and the person's own /mail).
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { type Actor, appendAudit } from "../audit/log.ts";
import type { DashboardDb, Queryable } from "../db/client.ts";
import type { credentialLinks } from "../db/schema.ts";
import { queueMail } from "../inbox/mail-outbox.ts";
import { invalid, RouteError } from "../route-kit/errors.ts";
import type { SqlRow } from "../server/sql-row.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { checkUnderLockout } from "./sign-in.ts";
import { endEverySession, findUserById, type UserRow } from "./users.ts";

export type CredentialLinkPurpose = "invite" | "reset" | "totp_removal";

/** How long each kind of link works: a newcomer may open their mail a few days later. */
export const LINK_LIFETIME_MS: Record<CredentialLinkPurpose, number> = {
  invite: 72 * 3_600_000,
  reset: 2 * 3_600_000,
  totp_removal: 2 * 3_600_000,
};

/** The page a link opens; the token travels in the fragment, so it reaches no server log. */
export const LINK_PATH = "/account-link";

const PURPOSE_WORDS: Record<CredentialLinkPurpose, { subject: string; lead: string }> = {
  invite: {
    subject: "Your Treasury account: choose your password",
    lead: "An administrator invited you to Treasury. Open this link to choose your password:",
  },
  reset: {
    subject: "Your Treasury password was reset: choose a new one",
    lead: "An administrator reset your Treasury password; your old password no longer works and every session of yours has ended. Open this link to choose a new password:",
  },
  totp_removal: {
    subject: "Remove your two-step sign-in device",
    lead: "An administrator arranged for the two-step sign-in device you lost to be removed. Open this link and confirm with your password:",
  },
};

const tokenHash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** A password nobody knows: what an account holds between an invitation or reset and its link. */
export async function unknowablePasswordHash(): Promise<string> {
  return hashPassword(randomBytes(32).toString("base64url"));
}

function hoursText(ms: number): string {
  const h = Math.round(ms / 3_600_000);
  return `${h} hour${h === 1 ? "" : "s"}`;
}

/**
 * Issues a link to the person and queues its e-mail, in the caller's transaction. Earlier unused
 * links of the same purpose stop working. The token appears only in the message to the person.
 */
export async function issueCredentialLink(
  q: Queryable,
  o: {
    user: Pick<UserRow, "id" | "email" | "name">;
    purpose: CredentialLinkPurpose;
    requestedBy: Actor | null;
    approvedBy?: Actor | null;
    publicUrl?: string;
    now?: Date;
  },
): Promise<{ expiresAt: Date }> {
  const now = o.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS[o.purpose]);
  await q.query(
    "UPDATE credential_links SET expires_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3",
    [o.user.id, o.purpose, now],
  );
  await q.query(
    `INSERT INTO credential_links (id, user_id, purpose, token_hash, created_at, expires_at, requested_by_email, approved_by_email)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      randomUUID(),
      o.user.id,
      o.purpose,
      tokenHash(token),
      now,
      expiresAt,
      o.requestedBy?.email ?? null,
      o.approvedBy?.email ?? null,
    ],
  );
  const words = PURPOSE_WORDS[o.purpose];
  const base = (o.publicUrl ?? "").replace(/\/$/, "");
  await queueMail(q, {
    to: o.user.email,
    subject: words.subject,
    kind: `credential_link.${o.purpose}`,
    text: [
      `Hello ${o.user.name},`,
      "",
      words.lead,
      `${base}${LINK_PATH}#${token}`,
      "",
      `The link works once, within ${hoursText(LINK_LIFETIME_MS[o.purpose])}. No one else is sent it, and no administrator sees it.`,
      "If you did not expect this message, tell your administrator.",
    ].join("\n"),
  });
  await appendAudit(q, {
    actorId: o.approvedBy?.id ?? o.requestedBy?.id ?? null,
    actorEmail: o.approvedBy?.email ?? o.requestedBy?.email ?? null,
    action: "credential_link.issue",
    target: o.user.email,
    result: "ok",
    detail: {
      purpose: o.purpose,
      expiresAt: expiresAt.toISOString(),
      requestedBy: o.requestedBy?.email ?? null,
      ...(o.approvedBy ? { approvedBy: o.approvedBy.email } : {}),
    },
    ip: o.approvedBy?.ip ?? o.requestedBy?.ip ?? null,
  });
  return { expiresAt };
}

/**
 * A reset: the old password stops working (a password nobody knows replaces it), every session
 * of the user ends, a lockout is lifted, and the user waits for the link. In the caller's transaction.
 */
export async function resetCredentials(q: Queryable, userId: string, now = new Date()): Promise<void> {
  await q.query(
    `UPDATE users SET password_hash = $2, password_must_change = true, failed_attempts = 0, locked_until = NULL,
       credentials_changed_at = $3, updated_at = $3
     WHERE id = $1`,
    [userId, await unknowablePasswordHash(), now],
  );
  await endEverySession(q, userId, { now });
}

type LinkRow = Pick<SqlRow<typeof credentialLinks>, "id" | "user_id" | "expires_at" | "used_at"> & {
  purpose: CredentialLinkPurpose;
};

const LINK_UNUSABLE = () =>
  invalid(
    [{ field: "token", message: "is not a working link: it was used already, has expired, or was replaced" }],
    "This link no longer works. Ask your administrator to send a new one.",
  );

/** What a link is for, without using it: for the page to show the right form. */
export async function inspectCredentialLink(
  db: Queryable,
  token: string,
  now = new Date(),
): Promise<{ purpose: CredentialLinkPurpose; email: string; expiresAt: string }> {
  const rows = await db.query<LinkRow & { email: string; disabled: boolean }>(
    `SELECT l.*, u.email, u.disabled FROM credential_links l JOIN users u ON u.id = l.user_id
     WHERE l.token_hash = $1`,
    [tokenHash(token)],
  );
  const l = rows[0];
  if (!l || l.used_at !== null || new Date(l.expires_at) <= now || l.disabled) throw LINK_UNUSABLE();
  return { purpose: l.purpose, email: l.email, expiresAt: new Date(l.expires_at).toISOString() };
}

/**
 * Uses a link once: claims it under a row lock (two uses at once: one wins, the other is refused),
 * then sets the password the person chose, or removes their second factor after their password
 * proves it is them. Every session of the user ends; the person is e-mailed what happened.
 */
export async function redeemCredentialLink(
  db: DashboardDb,
  input: { token: string; newPassword?: string; currentPassword?: string; ip: string | null },
  now = new Date(),
): Promise<{ purpose: CredentialLinkPurpose; email: string }> {
  const outcome = await db.tx(async (q) => {
    const rows = await q.query<LinkRow>("SELECT * FROM credential_links WHERE token_hash = $1 FOR UPDATE", [
      tokenHash(input.token),
    ]);
    const link = rows[0];
    if (!link || link.used_at !== null || new Date(link.expires_at) <= now)
      return { refused: "unusable" as const };
    const user = await findUserById(q, link.user_id);
    if (!user || user.disabled) return { refused: "unusable" as const };
    if (link.purpose === "totp_removal") {
      // The link alone is not enough: the person's password proves the mailbox reader is them.
      const proof = await checkUnderLockout(
        q,
        user,
        () => verifyPassword(user.password_hash, input.currentPassword ?? ""),
        now.getTime(),
      );
      if (!proof.ok)
        return { refused: proof.reason, user, minutes: proof.reason === "locked" ? proof.minutes : 0 };
      await q.query(
        `UPDATE users SET totp_secret = NULL, totp_pending_secret = NULL, totp_last_step = NULL,
           credentials_changed_at = $2, updated_at = $2
         WHERE id = $1`,
        [user.id, now],
      );
    } else {
      await q.query(
        `UPDATE users SET password_hash = $2, password_must_change = false, failed_attempts = 0, locked_until = NULL,
           credentials_changed_at = $3, updated_at = $3
         WHERE id = $1`,
        [user.id, await hashPassword(input.newPassword ?? ""), now],
      );
    }
    await endEverySession(q, user.id, { now });
    await q.query("UPDATE credential_links SET used_at = $2 WHERE id = $1", [link.id, now]);
    await appendAudit(q, {
      actorId: user.id,
      actorEmail: user.email,
      action: "credential_link.use",
      target: user.email,
      result: "ok",
      detail: { purpose: link.purpose },
      ip: input.ip,
    });
    const done =
      link.purpose === "totp_removal"
        ? "Your two-step sign-in device was removed through the link sent to you. Set up a new one from your profile."
        : link.purpose === "invite"
          ? "You chose your Treasury password through your invitation link."
          : "You chose a new Treasury password through your reset link.";
    await queueMail(q, {
      to: user.email,
      subject:
        link.purpose === "totp_removal"
          ? "Your two-step sign-in device was removed"
          : "Your Treasury password was set",
      kind: "credential.changed",
      text: `${done}\nIf this was not you, tell your administrator at once.`,
    });
    return { purpose: link.purpose, email: user.email };
  });
  if ("refused" in outcome) {
    if (outcome.refused === "locked")
      throw new RouteError(
        423,
        "locked",
        `Too many wrong attempts: the account is locked for ${outcome.minutes} minutes.`,
      );
    if (outcome.refused === "wrong")
      throw invalid(
        [{ field: "currentPassword", message: "is not your password" }],
        "The password is not right.",
      );
    throw LINK_UNUSABLE();
  }
  return outcome;
}

/** One entry of an account's recent credential history, as the second administrator sees it. */
export interface CredentialEvent {
  at: string;
  action: string;
  by: string | null;
  result: string;
  detail: Record<string, unknown> | null;
}

/** Actions that touch a person's credentials or second factor. */
export const CREDENTIAL_ACTIONS = [
  "user.create",
  "user.password_reset",
  "user.unlock",
  "credential_link.issue",
  "credential_link.use",
  "password.change",
  "totp.enrol_start",
  "totp.enable",
  "totp.replace",
  "totp.replace_start",
  "totp.disable",
];

/** What happened to an account's credentials and second factor in the last `days` days, newest first. */
export async function credentialHistory(
  q: Queryable,
  email: string,
  days = 30,
  now = new Date(),
): Promise<CredentialEvent[]> {
  const rows = await q.query<{
    at: Date;
    action: string;
    actor_email: string | null;
    result: string;
    detail: Record<string, unknown> | null;
  }>(
    `SELECT at, action, actor_email, result, detail FROM audit_log
     WHERE target = $1 AND action = ANY($2::text[]) AND at >= $3 ORDER BY at DESC, id DESC LIMIT 100`,
    [email, CREDENTIAL_ACTIONS, new Date(now.getTime() - days * 86_400_000)],
  );
  return rows.map((r) => ({
    at: new Date(r.at).toISOString(),
    action: r.action,
    by: r.actor_email,
    result: r.result,
    detail: r.detail,
  }));
}
