// Access tokens (specification, Authentication; docs/decisions.md, "Tokens"): HS256 JWTs valid 15 minutes,
// issued at most once per subscription key per interval, accepted raw or as `Bearer <jwt>`.
import { randomBytes } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import type { SqlRow } from "../../lib/server/sql-row.ts";
import type { Clock } from "../clock.ts";
import type { Queryable } from "../db/client.ts";
import type { bankSettings, tokenIssues } from "../db/schema.ts";
import { HttpError, unauthorized } from "../http/errors.ts";
import type { Customer } from "./keys.ts";

const ISSUER = "banking-api-v2";

async function loadSecret(db: Queryable, configured?: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  // Generated once and kept in the database so tokens survive restarts and work on every instance.
  const fresh = randomBytes(32).toString("base64url");
  await db.query(
    "INSERT INTO bank_settings (key, value) VALUES ('jwt_secret', $1) ON CONFLICT (key) DO NOTHING",
    [fresh],
  );
  const rows = await db.query<Pick<SqlRow<typeof bankSettings>, "value">>(
    "SELECT value FROM bank_settings WHERE key = 'jwt_secret'",
  );
  return new TextEncoder().encode(rows[0].value);
}

export async function createTokenService(
  db: Queryable,
  clock: Clock,
  opts: { ttlSeconds: number; intervalSeconds: number; secret?: string },
) {
  const secret = await loadSecret(db, opts.secret);
  // Verified tokens, so the hot path does not re-verify the signature on every call.
  const verified = new Map<string, { customerId: number; exp: number }>();

  return {
    async issue(customer: Customer): Promise<string> {
      const now = clock.now();
      const rows = await db.query<Pick<SqlRow<typeof tokenIssues>, "customer_id">>(
        `INSERT INTO token_issues (customer_id, last_issued_at) VALUES ($1, $2)
         ON CONFLICT (customer_id) DO UPDATE SET last_issued_at = EXCLUDED.last_issued_at
         WHERE token_issues.last_issued_at <= $2::timestamptz - make_interval(secs => $3)
         RETURNING customer_id`,
        [customer.id, now, opts.intervalSeconds],
      );
      if (!rows.length) {
        const last = await db.query<Pick<SqlRow<typeof tokenIssues>, "last_issued_at">>(
          "SELECT last_issued_at FROM token_issues WHERE customer_id = $1",
          [customer.id],
        );
        const wait = Math.max(
          1,
          Math.ceil((last[0].last_issued_at.getTime() + opts.intervalSeconds * 1000 - now.getTime()) / 1000),
        );
        throw new HttpError(
          429,
          `A token can be requested once every ${opts.intervalSeconds} seconds; try again in ${wait} seconds`,
          undefined,
          { [BANK_HEADERS.retryAfter]: String(wait) },
        );
      }
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ cid: customer.id })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuer(ISSUER)
        .setSubject(String(customer.id))
        .setJti(randomBytes(9).toString("base64url"))
        .setIssuedAt(iat)
        .setExpirationTime(iat + opts.ttlSeconds)
        .sign(secret);
    },

    /** Checks the Authorization header against the customer of the subscription key; throws 401. */
    async verify(header: string | undefined, customer: Customer): Promise<void> {
      if (!header)
        throw unauthorized(
          `Missing ${BANK_HEADERS.authorization} header: request a token from /v2/access/token`,
        );
      const token =
        header.startsWith("Bearer ") || header.startsWith("bearer ") ? header.slice(7).trim() : header.trim();
      const nowSec = clock.now().getTime() / 1000;
      let entry = verified.get(token);
      if (!entry) {
        try {
          const { payload } = await jwtVerify(token, secret, {
            issuer: ISSUER,
            algorithms: ["HS256"],
            currentDate: clock.now(),
          });
          entry = { customerId: Number(payload.sub), exp: payload.exp ?? 0 };
        } catch {
          throw unauthorized("Access token is invalid or expired");
        }
        if (verified.size > 50_000) verified.clear();
        verified.set(token, entry);
      }
      if (entry.exp <= nowSec) {
        verified.delete(token);
        throw unauthorized("Access token is invalid or expired");
      }
      if (entry.customerId !== customer.id)
        throw unauthorized("Access token was not issued to this subscription key");
    },
  };
}
export type TokenService = Awaited<ReturnType<typeof createTokenService>>;
