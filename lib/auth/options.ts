// next-auth configuration: credentials over the users table (argon2id), JWT sessions that carry
// the last activity (refreshed through session updates) and end when idle or after 12 hours.
import type { NextAuthOptions, User } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { appendAudit } from "../audit/log.ts";
import { config } from "../config.ts";
import { getDashboardDb } from "../db/client.ts";
import { dashboardMetrics } from "../operations/metrics.ts";
import { createLogger } from "../server/log.ts";
import { sameOriginPath } from "./callback-url.ts";
import { sessionSettings } from "./session-limits.ts";
import { openSessionRecord, sessionRecordOpen } from "./session-store.ts";
import { type SessionClaims, sessionExpiry } from "./session-token.ts";
import { checkSignIn } from "./sign-in.ts";
import { revokeAtSignOut } from "./sign-out.ts";
import { allowSignInAttempt, clientIp } from "./throttle.ts";
import { toSessionUser } from "./users.ts";

const log = createLogger("auth");

/**
 * Codes the sign-in page turns into sentences. next-auth passes a thrown message through to
 * the page as `error`, so each is a short stable word, with the minutes after a colon.
 */
export const SIGN_IN_ERRORS = {
  invalid: "invalid",
  locked: "locked",
  disabled: "disabled",
  totpRequired: "totp_required",
  totpInvalid: "totp_invalid",
  rateLimited: "rate_limited",
} as const;

const nowSec = () => Math.floor(Date.now() / 1000);

export function authOptions(): NextAuthOptions {
  const settings = sessionSettings();
  return {
    secret: config().nextAuthSecret,
    session: { strategy: "jwt", maxAge: settings.absoluteSeconds },
    jwt: { maxAge: settings.absoluteSeconds },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "E-mail and password",
        credentials: {
          email: { label: "Work e-mail", type: "email" },
          password: { label: "Password", type: "password" },
          totp: { label: "Authenticator code", type: "text" },
        },
        async authorize(credentials, req): Promise<User | null> {
          const db = await getDashboardDb();
          const ip = clientIp((req?.headers ?? {}) as Record<string, string>);
          const email = String(credentials?.email ?? "").slice(0, 320);
          const password = String(credentials?.password ?? "").slice(0, 1024);
          const totp = String(credentials?.totp ?? "").trim() || undefined;
          const audit = (result: string, userId: string | null, detail?: Record<string, unknown>) =>
            appendAudit(db, {
              actorId: userId,
              actorEmail: email.toLowerCase() || null,
              action: "auth.sign_in",
              result,
              detail,
              ip,
            });
          if (!(await allowSignInAttempt(db, ip))) {
            dashboardMetrics().signInFailed("rate_limited");
            await audit("rate_limited", null);
            throw new Error(SIGN_IN_ERRORS.rateLimited);
          }
          if (!email || !password) throw new Error(SIGN_IN_ERRORS.invalid);
          const outcome = await checkSignIn(db, { email, password, totp });
          if (outcome.ok) {
            await audit("ok", outcome.user.id);
            const u = toSessionUser(outcome.user);
            return { id: u.id, email: u.email, name: u.name };
          }
          // A missing code is the normal second step, not a failure worth recording.
          if (outcome.reason !== "totp_required") {
            dashboardMetrics().signInFailed(outcome.reason);
            await audit(outcome.reason, outcome.user?.id ?? null);
          }
          if (outcome.reason === "locked") throw new Error(`${SIGN_IN_ERRORS.locked}:${outcome.minutes}`);
          const codes = {
            invalid: SIGN_IN_ERRORS.invalid,
            disabled: SIGN_IN_ERRORS.disabled,
            totp_required: SIGN_IN_ERRORS.totpRequired,
            totp_invalid: SIGN_IN_ERRORS.totpInvalid,
          } as const;
          throw new Error(codes[outcome.reason]);
        },
      }),
    ],
    callbacks: {
      // Every address next-auth is asked to send the browser to after sign-in or sign-out.
      async redirect({ url, baseUrl }) {
        return new URL(sameOriginPath(url, baseUrl), baseUrl).href;
      },
      async jwt({ token, user, trigger }) {
        const t = token as SessionClaims;
        if (user) {
          const now = nowSec();
          const expiresAt = new Date((now + settings.absoluteSeconds) * 1000);
          const sid = await openSessionRecord(await getDashboardDb(), user.id, expiresAt);
          return {
            sub: user.id,
            sid,
            email: user.email,
            name: user.name,
            signedInAt: now,
            lastActivity: now,
          };
        }
        // Throwing here makes next-auth clear the cookie: the session is over.
        const expired = sessionExpiry(t);
        if (expired) throw new Error(`session ended (${expired})`);
        // Signed out (on any instance), or never recorded: neither read nor refreshed.
        if (!(await sessionRecordOpen(await getDashboardDb(), t.sid)))
          throw new Error("session ended (signed out)");
        if (trigger === "update") t.lastActivity = nowSec();
        return t;
      },
      async session({ session, token }) {
        const t = token as SessionClaims;
        return {
          ...session,
          user: { id: t.sub, email: t.email, name: t.name },
          idleDeadline: new Date((t.lastActivity + settings.idleSeconds) * 1000).toISOString(),
        };
      },
    },
    events: {
      // next-auth clears the cookie after this whatever happens here; revoking the record is what
      // ends a copy of it, and a revoke that cannot be written fails the sign-out (sign-out.ts).
      async signOut({ token }) {
        const t = token as SessionClaims | undefined;
        if (!t?.sub) return;
        const ended =
          typeof t.sid !== "string" ||
          (await revokeAtSignOut(getDashboardDb, t.sid, (t.signedInAt + settings.absoluteSeconds) * 1000));
        try {
          await appendAudit(await getDashboardDb(), {
            actorId: t.sub,
            actorEmail: t.email ?? null,
            action: "auth.sign_out",
            result: ended ? "ok" : "failed: the session could not be revoked and stays open",
          });
        } catch (e) {
          log.warn("could not record a sign-out", { error: e });
        }
      },
    },
    logger: {
      error: (code, metadata) => {
        // Expected sign-in refusals and ended sessions are not errors worth a stack.
        if (code === "CREDENTIALS_SIGNIN_ERROR" || code === "JWT_SESSION_ERROR") return;
        log.error(`next-auth ${code}`, { metadata });
      },
      warn: (code) => log.warn(`next-auth ${code}`),
      debug: () => {},
    },
  };
}
