// Integration tokens: an administrator gives an ERP read-only access to the statements and the
// history of chosen accounts. The token is shown once; only its SHA-256 is stored; revoking ends it
// at once on every instance (each request reads the row); each use records when and from where.
import "server-only";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { NextRequest } from "next/server";
import { type Actor, appendAudit } from "../audit/log.ts";
import { clientIp } from "../auth/throttle.ts";
import type { DashboardDb, Queryable } from "../db/client.ts";
import { getDashboardDb } from "../db/client.ts";
import type { integrationTokens } from "../db/schema.ts";
import { notFound, RouteError } from "../route-kit/errors.ts";
import { json, withPublicRoute } from "../route-kit/route.ts";
import type { SqlRow } from "../server/sql-row.ts";

/** Tokens start with this, so a leaked one is recognised (and the logs' censor knows its shape). */
export const TOKEN_PREFIX = "itk_";

export interface IntegrationToken {
  id: string;
  name: string;
  prefix: string;
  accounts: string[];
  createdBy: string;
  createdAt: string;
  revokedAt: string | null;
  revokedBy: string | null;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
}

type Row = Pick<
  SqlRow<typeof integrationTokens>,
  | "id"
  | "name"
  | "prefix"
  | "accounts"
  | "created_by"
  | "created_at"
  | "revoked_at"
  | "revoked_by"
  | "last_used_at"
  | "last_used_ip"
>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function fromRow(r: Row): IntegrationToken {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    accounts: r.accounts,
    createdBy: r.created_by,
    createdAt: iso(r.created_at) as string,
    revokedAt: iso(r.revoked_at),
    revokedBy: r.revoked_by,
    lastUsedAt: iso(r.last_used_at),
    lastUsedIp: r.last_used_ip,
  };
}

const COLUMNS =
  "id, name, prefix, accounts, created_by, created_at, revoked_at, revoked_by, last_used_at, last_used_ip";

/** 256 random bits: a fast hash is enough to store it (nothing to guess, nothing to stretch). */
const hashOf = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** A new token and its audit entry, in one transaction: neither without the other. */
export async function createIntegrationToken(
  dashboard: Pick<DashboardDb, "tx">,
  actor: Actor,
  o: { name: string; accounts: string[] },
): Promise<{ token: string; record: IntegrationToken }> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const id = randomUUID();
  return dashboard.tx(async (db) => {
    const rows = await db.query<Row>(
      `INSERT INTO integration_tokens (id, name, token_hash, prefix, accounts, created_by)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [id, o.name, hashOf(token), token.slice(0, TOKEN_PREFIX.length + 6), o.accounts, actor.email],
    );
    await appendAudit(db, {
      actorId: actor.id,
      actorEmail: actor.email,
      ip: actor.ip ?? null,
      action: "integration_token.create",
      target: id,
      result: "ok",
      detail: { name: o.name, accounts: o.accounts },
    });
    return { token, record: fromRow(rows[0]) };
  });
}

export async function listIntegrationTokens(db: Queryable): Promise<IntegrationToken[]> {
  const rows = await db.query<Row>(`SELECT ${COLUMNS} FROM integration_tokens ORDER BY created_at DESC`);
  return rows.map(fromRow);
}

/**
 * Revokes a token with its audit entry, in one transaction. Race-safe with its use: a use is one
 * statement that reads the token's state and records the use together (redeemIntegrationToken),
 * so it is ordered on the row's lock before the revocation (and recorded before it, clock_timestamp
 * taken under the lock) or after it and refused; no use is ever recorded after a revocation.
 */
export async function revokeIntegrationToken(
  dashboard: Pick<DashboardDb, "tx">,
  actor: Actor,
  id: string,
): Promise<IntegrationToken> {
  return dashboard.tx(async (db) => {
    const rows = await db.query<Row>(
      `UPDATE integration_tokens SET revoked_at = clock_timestamp(), revoked_by = $2
     WHERE id = $1 AND revoked_at IS NULL RETURNING ${COLUMNS}`,
      [id, actor.email],
    );
    if (!rows.length) {
      const exists = await db.query<Row>(`SELECT ${COLUMNS} FROM integration_tokens WHERE id = $1`, [id]);
      if (!exists.length) throw notFound("No such integration token.");
      return fromRow(exists[0]);
    }
    await appendAudit(db, {
      actorId: actor.id,
      actorEmail: actor.email,
      ip: actor.ip ?? null,
      action: "integration_token.revoke",
      target: id,
      result: "ok",
      detail: { name: rows[0].name },
    });
    return fromRow(rows[0]);
  });
}

/**
 * The live token a bearer value names, its use recorded; null for an unknown or revoked one. The
 * check and the use are one statement on the row: never a use of a token already revoked.
 */
export async function redeemIntegrationToken(
  db: Queryable,
  bearer: string,
  ip: string,
): Promise<IntegrationToken | null> {
  if (!bearer.startsWith(TOKEN_PREFIX)) return null;
  const rows = await db.query<Row>(
    `UPDATE integration_tokens SET last_used_at = clock_timestamp(), last_used_ip = $2
     WHERE token_hash = $1 AND revoked_at IS NULL RETURNING ${COLUMNS}`,
    [hashOf(bearer), ip],
  );
  return rows.length ? fromRow(rows[0]) : null;
}

/** The bearer value of `Authorization: Bearer <token>`, or null when the request carries none. */
export function bearerOf(req: Request): string | null {
  const h = req.headers.get("authorization");
  if (!h) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : "";
}

export interface TokenRouteContext<P> {
  req: NextRequest;
  requestId: string;
  token: IntegrationToken;
  params: P;
}

/**
 * A read route that an integration token may call as well as a signed-in user: a request with
 * `Authorization: Bearer` goes to `byToken` (401 for a missing, unknown or revoked token), every
 * other request to the session route unchanged. Only the routes wrapped here accept a token.
 */
export function sessionOrToken<P extends Record<string, string>>(
  bySession: (req: NextRequest, ctx: { params: Promise<P> }) => Promise<Response>,
  byToken: (ctx: TokenRouteContext<P>) => Promise<Response | unknown>,
) {
  const tokenRoute = (params: Promise<P> | undefined) =>
    withPublicRoute(async ({ req, requestId }) => {
      if (req.method !== "GET" && req.method !== "HEAD")
        throw new RouteError(405, "method_not_allowed", "An integration token only reads.");
      const bearer = bearerOf(req) ?? "";
      const token = bearer
        ? await redeemIntegrationToken(await getDashboardDb(), bearer, clientIp(req.headers))
        : null;
      if (!token)
        return json(
          { error: { code: "unauthenticated", message: "The integration token is unknown or revoked." } },
          {
            status: 401,
            headers: { "WWW-Authenticate": 'Bearer realm="statements"', "X-Request-Id": requestId },
          },
        );
      return byToken({ req, requestId, token, params: ((await params) ?? {}) as P });
    });
  return (req: NextRequest, ctx: { params: Promise<P> }): Promise<Response> =>
    bearerOf(req) === null ? bySession(req, ctx) : tokenRoute(ctx?.params)(req, ctx);
}

/** An account the token does not list is not found, as another customer's is. */
export function tokenMayRead(token: IntegrationToken, accounts: string[]): void {
  for (const a of accounts)
    if (!token.accounts.includes(a)) throw notFound(`Account ${a} is not one of this customer's accounts.`);
}
