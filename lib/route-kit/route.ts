// The one wrapper every dashboard route handler goes through (docs/decisions.md, "Roles and one wrapper"): it refuses
// cross-site state changes, reads the session, checks the permission, parses the input with zod
// (the path's parameters, a 404 when they name nothing; the query and body, a 400) and turns every
// failure into the API's error body. The handler body is the business step alone.
import "server-only";
import type { NextRequest } from "next/server";
import * as z from "zod/v4/core";
import type { Actor } from "../audit/log.ts";
import { hasPermission, type Permission } from "../auth/permissions.ts";
import {
  checkSessionCookie,
  currentUser,
  type SessionClaims,
  sessionCookieName,
} from "../auth/session-token.ts";
import { clientIp } from "../auth/throttle.ts";
import { BankCallError } from "../bank-client/errors.ts";
import { config } from "../config.ts";
import type { SessionUser } from "../dashboard-api/index.ts";
import { type DashboardDb, getDashboardDb } from "../db/client.ts";
import { isRefusing, trackRequest } from "../operations/lifecycle.ts";
import { dashboardMetrics } from "../operations/metrics.ts";
import { httpFront } from "../server/http-front.ts";
import { createLogger } from "../server/log.ts";
import { methodLabel } from "../server/metrics.ts";
import { inScope, scopeFor } from "../server/trace.ts";
import {
  errorBody,
  fieldsOf,
  forbidden,
  fromBankError,
  invalid,
  notFound,
  RouteError,
  unauthenticated,
} from "./errors.ts";
import { refuseCrossSite } from "./same-origin.ts";

const log = createLogger("api");

type Params = Record<string, string | string[]>;

export interface RouteContext<Q, B, P> {
  req: NextRequest;
  user: SessionUser;
  session: SessionClaims;
  params: P;
  query: Q;
  body: B;
  db: DashboardDb;
  requestId: string;
  /** Client address, for the audit log. */
  ip: string;
  /** The user and the address together: who the steps of this request are audited as. */
  actor: Actor;
}

export interface PublicRouteContext {
  req: NextRequest;
  requestId: string;
}

interface RouteOptions<
  QS extends z.$ZodType | undefined,
  BS extends z.$ZodType | undefined,
  PS extends z.$ZodType | undefined,
  RS extends z.$ZodType | undefined,
> {
  /** The permission needed; omitted means any signed-in user. */
  permission?: Permission;
  /**
   * Open to a session whose password an administrator set (a reset, or a new user's first
   * password): only the route that replaces the password. Every other state change is refused
   * until then, so whoever knows a temporary password cannot act as its user.
   */
  beforePasswordChange?: "allowed";
  /**
   * The path's parameters (lib/route-kit/params.ts): a value they refuse names nothing, so the request
   * is answered 404 naming the parameter, before any query. Omitted: each is the string given.
   */
  params?: PS;
  query?: QS;
  body?: BS;
  /** The answer's schema (lib/dashboard-api/*): checked outside production, so tests catch a drift. */
  response?: RS;
  /**
   * For an answer polled often: its version, sent as its ETag. A request whose If-None-Match names
   * the version gets 304 Not Modified without a body, with the version's headers beside it.
   */
  version?: (answer: Answer<RS>) => { tag: string; headers?: Record<string, string> };
}

type Out<S> = S extends z.$ZodType ? z.output<S> : undefined;
/** The handler's path parameters: its params schema's output, or each segment's text. */
type PathOut<S> = S extends z.$ZodType ? z.output<S> : Record<string, string>;

export const NO_SUCH_ADDRESS = "Nothing is found at this address.";

/**
 * The path's parameters checked against their schema: a 404 naming each one refused (a path that
 * names nothing, as an unknown id does). Also for a route that reads its parameters itself.
 */
export function parsePathParams<S extends z.$ZodType>(schema: S, raw: unknown): z.output<S> {
  const r = z.safeParse(schema, raw ?? {});
  if (!r.success) throw notFound(NO_SUCH_ADDRESS, fieldsOf(r.error.issues));
  return r.data;
}
/** What a handler may return: its response schema's input, or a Response it built itself. */
type Answer<S> = S extends z.$ZodType ? z.input<S> : unknown;

const NO_STORE = { "Cache-Control": "no-store" };

export function json(
  data: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify(data), {
    status: init.status ?? 200,
    headers: { "Content-Type": "application/json", ...NO_STORE, ...init.headers },
  });
}

function errorResponse(e: unknown, requestId: string, route: string): Response {
  const err = e instanceof BankCallError ? fromBankError(e.error) : e;
  if (err instanceof RouteError) {
    if (err.status >= 500) log.warn("request failed at the bank", { route, requestId, code: err.code });
    return json(errorBody(err.code, err.message, err.fields), {
      status: err.status,
      headers: { "X-Request-Id": requestId, ...err.headers },
    });
  }
  log.error("unexpected error", { route, requestId, error: e });
  return json(errorBody("internal", `Something went wrong on our side. Reference: ${requestId}.`), {
    status: 500,
    headers: { "X-Request-Id": requestId },
  });
}

/** Methods that read: everything else changes state. */
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

export const PASSWORD_CHANGE_FIRST =
  "Your password was set by an administrator: choose your own password first (Profile, or /change-password), then try again.";

/**
 * The route's pattern for metrics: each path segment that is a parameter's value is written as
 * the parameter (`/api/drafts/[id]/release`), so an id never becomes a label value.
 */
export function routePattern(pathname: string, params: Params): string {
  const names = new Map<string, string>();
  for (const [k, v] of Object.entries(params)) if (typeof v === "string") names.set(v, k);
  if (!names.size) return pathname;
  return pathname
    .split("/")
    .map((seg) => {
      let decoded = seg;
      try {
        decoded = decodeURIComponent(seg);
      } catch {}
      const name = names.get(decoded);
      return name ? `[${name}]` : seg;
    })
    .join("/");
}

/**
 * Every request through the wrappers: in its own log scope (request id, and the caller's trace
 * continued or a new one), counted in flight for a graceful stop, timed and counted by route
 * pattern; refused with 503 once a stop has begun.
 */
async function served(
  req: NextRequest,
  params: Promise<Params> | Params | undefined,
  handle: (requestId: string) => Promise<Response>,
): Promise<Response> {
  const scope = scopeFor(req.headers.get("traceparent"));
  return inScope(scope, () =>
    trackRequest(async () => {
      const started = performance.now();
      const res = isRefusing()
        ? json(errorBody("unavailable", "This server is stopping. Try again in a moment."), {
            status: 503,
            headers: { "Retry-After": "1", "X-Request-Id": scope.requestId },
          })
        : await handle(scope.requestId);
      const resolved = ((await Promise.resolve(params).catch(() => undefined)) ?? {}) as Params;
      const route = routePattern(req.nextUrl?.pathname ?? "", resolved);
      const seconds = (performance.now() - started) / 1000;
      // Under the dashboard's server, the server counts the request (with this pattern) once it is answered.
      const exchange = httpFront()?.exchange();
      if (exchange) exchange.route = route;
      else dashboardMetrics().http.observe(methodLabel(req.method), route, res.status, seconds);
      log.info("request", { method: req.method, route, status: res.status, ms: Math.round(seconds * 1000) });
      return res;
    }),
  );
}

const SESSION_ENDED: Record<string, string> = {
  idle: "Your session ended after a period without activity. Sign in again.",
  absolute: "Your session reached its 12-hour limit. Sign in again.",
  // A sign-out, or every session of the user ended: a password change or reset, a disabling.
  ended:
    "This session has ended (it was signed out, the password was changed, or the account was disabled). Sign in again.",
};

export function withRoute<
  QS extends z.$ZodType | undefined = undefined,
  BS extends z.$ZodType | undefined = undefined,
  PS extends z.$ZodType | undefined = undefined,
  RS extends z.$ZodType | undefined = undefined,
>(
  handler: (ctx: RouteContext<Out<QS>, Out<BS>, PathOut<PS>>) => Promise<Response | Answer<RS>>,
  opts: RouteOptions<QS, BS, PS, RS> = {},
) {
  return (req: NextRequest, context?: { params?: Promise<Params> | Params }): Promise<Response> =>
    served(req, context?.params, (requestId) => handleRoute(req, context, requestId));

  async function handleRoute(
    req: NextRequest,
    context: { params?: Promise<Params> | Params } | undefined,
    requestId: string,
  ): Promise<Response> {
    const refused = refuseCrossSite(req);
    if (refused) return refused;
    try {
      const check = await checkSessionCookie(req.cookies.get(sessionCookieName())?.value);
      if (!check.ok) throw unauthenticated(SESSION_ENDED[check.reason]);
      const db = await getDashboardDb();
      const changesState = !READS.has(req.method);
      // A state change reads the user row afresh, not from the short cache: a reset, a disable or a
      // role change made on another instance a moment ago holds for it at once.
      const user = await currentUser(db, check.claims.sub, check.claims.signedInAt, { fresh: changesState });
      if (!user)
        throw unauthenticated(
          "Your session has ended (the password was changed, or the account is no longer active). Sign in again.",
        );
      if (changesState && user.resetPending && opts.beforePasswordChange !== "allowed")
        throw new RouteError(403, "password_change_required", PASSWORD_CHANGE_FIRST);
      if (opts.permission && !hasPermission(user.role, opts.permission)) throw forbidden();

      const raw = (await context?.params) ?? {};
      const params = (opts.params ? parsePathParams(opts.params, raw) : raw) as PathOut<PS>;
      let query: unknown;
      if (opts.query) {
        const r = z.safeParse(opts.query, Object.fromEntries(req.nextUrl.searchParams));
        if (!r.success) throw invalid(fieldsOf(r.error.issues));
        query = r.data;
      }
      let body: unknown;
      if (opts.body) {
        const raw = await readJsonBody(req);
        const r = z.safeParse(opts.body, raw);
        if (!r.success) throw invalid(fieldsOf(r.error.issues));
        body = r.data;
      }
      const ip = clientIp(req.headers);
      const out = await handler({
        req,
        user,
        session: check.claims,
        params,
        query: query as Out<QS>,
        body: body as Out<BS>,
        db,
        requestId,
        ip,
        actor: { id: user.id, email: user.email, ip },
      });
      if (out instanceof Response) return out;
      if (opts.response && config().checkResponses) {
        const r = z.safeParse(opts.response, out);
        if (!r.success)
          throw new Error(
            `the answer does not match its schema: ${JSON.stringify(fieldsOf(r.error.issues))}`,
          );
      }
      if (!opts.version) return json(out);
      const { tag, headers = {} } = opts.version(out);
      const etag = `"${tag}"`;
      if (req.headers.get("if-none-match") === etag)
        return new Response(null, { status: 304, headers: { ...NO_STORE, ETag: etag, ...headers } });
      return json(out, { headers: { ETag: etag } });
    } catch (e) {
      return errorResponse(e, requestId, `${req.method} ${req.nextUrl?.pathname ?? ""}`);
    }
  }
}

/**
 * The most a request body may hold. Every form the dashboard sends is a few kilobytes; a larger
 * body is refused before it is read further, so no request can make the server buffer megabytes.
 */
export const MAX_BODY_BYTES = 64 * 1024;
const BODY_TOO_LARGE = `must be at most ${MAX_BODY_BYTES.toLocaleString("en-US")} bytes`;

/** The request's body as text, read up to MAX_BODY_BYTES; null when it holds more (the rest unread). */
export async function readBodyText(req: Request): Promise<string | null> {
  const declared = Number(req.headers.get("content-length"));
  if (declared > MAX_BODY_BYTES) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        return null;
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The request's JSON body, read up to MAX_BODY_BYTES; a 400 naming the body otherwise. */
export async function readJsonBody(req: NextRequest): Promise<unknown> {
  const text = await readBodyText(req);
  if (text === null) throw invalid([{ field: "body", message: BODY_TOO_LARGE }]);
  try {
    return JSON.parse(text);
  } catch {
    throw invalid([{ field: "body", message: "must be a JSON object" }]);
  }
}

/** A public route's body checked against its schema: a 400 naming each field that is wrong. */
export async function parsePublicBody<S extends z.$ZodType>(
  req: NextRequest,
  schema: S,
): Promise<z.output<S>> {
  const r = z.safeParse(schema, await readJsonBody(req));
  if (!r.success) throw invalid(fieldsOf(r.error.issues));
  return r.data;
}

/** Routes that need no session (health checks): the same error mapping, nothing else. */
export function withPublicRoute(handler: (ctx: PublicRouteContext) => Promise<Response | unknown>) {
  return (req: NextRequest, context?: { params?: Promise<Params> | Params }): Promise<Response> =>
    served(req, context?.params, async (requestId) => {
      const refused = refuseCrossSite(req);
      if (refused) return refused;
      try {
        const out = await handler({ req, requestId });
        return out instanceof Response ? out : json(out);
      } catch (e) {
        return errorResponse(e, requestId, `${req.method} ${req.nextUrl?.pathname ?? ""}`);
      }
    });
}
