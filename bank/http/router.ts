// The bank's route table: one entry per method and path, and `v2()`, through which every /v2
// route of the contract goes: it authenticates, validates the query and body by the contract and
// picks the XML names of the answer; a handler is the business step alone. The server that reads
// requests and writes answers is in `server.ts`.

import type http from "node:http";
import type { z } from "zod";
import type { EndpointDef } from "../../lib/bank-api/endpoints.ts";
import { parseQuery, parseRequest } from "../../lib/bank-api/request.ts";
import type { Customer } from "../auth/keys.ts";
import { badRequest, unauthorized } from "./errors.ts";

export interface RequestContext {
  id: string;
  method: string;
  url: URL;
  req: http.IncomingMessage;
  /** The request body arrived as XML. */
  xmlBody: boolean;
  /** The client asked for XML. */
  wantsXml: boolean;
  /** Raw decoded body (object) or undefined. */
  rawBody: unknown;
  header(name: string): string | undefined;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Content already serialised (HTML pages, the OpenAPI document). */
  raw?: { contentType: string; text: string };
  xmlRoot?: string;
  xmlItem?: string;
}

export type RawHandler = (ctx: RequestContext) => Promise<Reply> | Reply;

export interface V2Args<Q, B> {
  ctx: RequestContext;
  customer: Customer;
  query: Q;
  body: B;
}

export interface Authenticator {
  /** Resolves the customer of the subscription key (401 when missing or unknown). */
  customer(ctx: RequestContext): Promise<Customer>;
  /** Checks the token (401). */
  token(ctx: RequestContext, customer: Customer): Promise<void>;
}

export class Router {
  private routes = new Map<string, RawHandler>();

  constructor(private auth: Authenticator) {}

  add(method: string, path: string, handler: RawHandler) {
    this.routes.set(`${method} ${path.toLowerCase()}`, handler);
    this.paths = undefined;
  }

  /** A /v2 endpoint of the contract: key (and token), validated query and body, JSON or XML reply. */
  v2<E extends EndpointDef>(
    e: E,
    handler: (
      args: V2Args<
        E["query"] extends z.ZodType ? z.output<E["query"]> : undefined,
        E["body"] extends z.ZodType ? z.output<E["body"]> : undefined
      >,
    ) => Promise<Reply | unknown>,
  ) {
    this.add(e.method, e.path, async (ctx) => {
      const customer = await this.auth.customer(ctx);
      if (e.needsToken) await this.auth.token(ctx, customer);
      let query: unknown;
      if (e.query) {
        const q = parseQuery(e.query, ctx.url.searchParams);
        if (!q.ok) throw badRequest(q.errors);
        query = q.value;
      }
      let body: unknown;
      if (e.body) {
        if (ctx.rawBody === undefined)
          throw badRequest([{ field: "body", message: "a request body is required" }]);
        const b = parseRequest(e.body, ctx.rawBody, { xml: ctx.xmlBody });
        if (!b.ok) throw badRequest(b.errors);
        body = b.value;
      }
      const out = await handler({ ctx, customer, query: query as never, body: body as never });
      const reply: Reply = isReply(out) ? out : { body: out };
      reply.xmlRoot ??= e.xmlRoot;
      reply.xmlItem ??= e.xmlItem;
      return reply;
    });
  }

  match(method: string, path: string): RawHandler | undefined {
    return this.routes.get(`${method} ${path.toLowerCase()}`);
  }

  /** The route a path belongs to, as metrics label it: its registered path, else "unmatched" (never the raw path). */
  routeOf(path: string): string {
    const p = path.toLowerCase();
    return this.hasPath(p) ? p : "unmatched";
  }

  hasPath(path: string): boolean {
    const p = path.toLowerCase();
    if (!this.paths) this.paths = new Set([...this.routes.keys()].map((k) => k.slice(k.indexOf(" ") + 1)));
    return this.paths.has(p);
  }

  private paths?: Set<string>;
}

const REPLY = Symbol("reply");

function isReply(x: unknown): x is Reply {
  return !!x && typeof x === "object" && REPLY in x;
}

/** A reply with a status or headers; a v2 handler may also return the bare body. */
export const reply = (body: unknown, extra: Omit<Reply, "body"> = {}): Reply =>
  Object.assign({ ...extra, body }, { [REPLY]: true });

export { unauthorized };
