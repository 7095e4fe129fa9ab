// The bank's HTTP server on node:http: reads each request (body size bounded, JSON or XML), finds
// its handler in the route table (`router.ts`), answers in JSON or XML and maps errors to the
// gateway's shape; it bounds connections per address, counts and logs requests, and stops gracefully.

import { randomUUID } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { JsonBodyError, readJsonBody } from "../../lib/bank-api/json-body.ts";
import { parseXmlBody, toXml, XmlError } from "../../lib/bank-api/xml.ts";
import { forwardedHops, type TrustedProxies, trustedProxies } from "../../lib/server/forwarded.ts";
import type { Logger } from "../../lib/server/log.ts";
import { type HttpMetrics, methodLabel } from "../../lib/server/metrics.ts";
import { inScope, scopeFor } from "../../lib/server/trace.ts";
import { badRequest, HttpError } from "./errors.ts";
import type { Reply, RequestContext, Router } from "./router.ts";

/** Bodies above this are refused with a 400 before they are read in full. */
export const MAX_BODY_BYTES = 1024 * 1024;

function wantsXml(req: http.IncomingMessage): boolean {
  const accept = req.headers.accept ?? "";
  if (/application\/json/i.test(accept)) return /(application|text)\/xml/i.test(accept.split(",")[0] ?? "");
  return /(application|text)\/xml/i.test(accept);
}

function isXmlContent(req: http.IncomingMessage): boolean {
  return /(application|text)\/(\w+\+)?xml/i.test(req.headers["content-type"] ?? "");
}

class BodyTooLarge extends Error {}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > MAX_BODY_BYTES) return reject(new BodyTooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners("data");
        req.pause();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: http.ServerResponse, ctx: Pick<RequestContext, "wantsXml" | "id">, r: Reply) {
  const status = r.status ?? 200;
  const headers: Record<string, string> = { [BANK_HEADERS.requestId]: ctx.id, ...(r.headers ?? {}) };
  let text = "";
  if (r.raw) {
    headers["content-type"] = r.raw.contentType;
    text = r.raw.text;
  } else if (r.body !== undefined) {
    if (ctx.wantsXml) {
      headers["content-type"] = "application/xml; charset=utf-8";
      text = toXml(r.xmlRoot ?? (status >= 400 ? "Error" : "Response"), r.body, r.xmlItem);
    } else {
      headers["content-type"] = "application/json; charset=utf-8";
      text = JSON.stringify(r.body);
    }
  }
  headers["content-length"] = String(Buffer.byteLength(text));
  res.writeHead(status, headers);
  res.end(text);
}

function errorBody(e: HttpError) {
  return e.errors
    ? { statusCode: e.status, message: e.message, errors: e.errors }
    : { statusCode: e.status, message: e.message };
}

export interface HttpServerOptions {
  logRequests?: boolean;
  /** Requests counted and timed by route pattern and status. */
  metrics?: HttpMetrics;
  /** Time a client has to send its headers, and its whole request (ms). */
  requestTimeoutMs?: number;
  /** Open connections one client address may hold; more are answered 503 and closed. */
  maxConnectionsPerAddress?: number;
  /**
   * BANK_TRUSTED_PROXIES: peers whose X-Forwarded-For names the client. Their connections are not
   * counted against their own address; each client behind them may have as many requests in
   * flight as an address may hold connections.
   */
  trustedProxies?: string[];
  /** Runs before each routed request: the clock another instance may have moved is read again. */
  beforeRequest?: () => Promise<void>;
  /**
   * The bank's "now" (its sandbox clock): every answer's `Date` header tells it, so that a client
   * takes the bank's business day from the bank rather than from its own wall clock.
   */
  now?: () => Date;
}

/** An HTTP date (RFC 9110) of `at`, made once per second. */
function httpDateOf(now: () => Date): () => string {
  let second = Number.NaN;
  let text = "";
  return () => {
    const at = now();
    const s = Math.floor(at.getTime() / 1000);
    if (s !== second) {
      second = s;
      text = at.toUTCString();
    }
    return text;
  };
}

/** The bank's HTTP server, and what a graceful stop needs from it. */
export interface BankHttpServer extends http.Server {
  /** Requests read but not yet answered. */
  inFlight(): number;
  /** From now on every answer closes its connection, so that kept-alive clients move elsewhere. */
  closeAfterEachAnswer(): void;
  /**
   * Gives each idle kept-alive connection `ms` more before it closes: a changed keepAliveTimeout
   * counts only for connections that go idle later, and those idle already wait on their 65 s.
   */
  idleSoon(ms: number): void;
}

const TOO_MANY = "Too many open connections from this address";

export function createHttpServer(router: Router, log: Logger, opts: HttpServerOptions = {}): BankHttpServer {
  const requestTimeout = opts.requestTimeoutMs ?? 10_000;
  const maxPerAddress = opts.maxConnectionsPerAddress ?? 128;
  const proxies = trustedProxies(opts.trustedProxies ?? []);
  const httpDate = opts.now ? httpDateOf(opts.now) : null;
  /** Requests in flight per client behind a trusted proxy. */
  const forwarded = new Map<string, number>();
  let inFlight = 0;
  let closing = false;
  /** Open connections, and those with a request under way. */
  const sockets = new Set<net.Socket>();
  const busy = new Set<net.Socket>();
  // Node checks these deadlines on a timer (30 s by default): check often enough to keep them.
  const server = http.createServer(
    { connectionsCheckingInterval: Math.min(1000, requestTimeout) },
    (req, res) => {
      const socket = req.socket;
      busy.add(socket);
      res.once("close", () => busy.delete(socket));
      if (proxies.trusted(req.socket.remoteAddress) && !admitForwarded(req, res)) return;
      const id = randomUUID();
      // The caller's trace (the dashboard sends one) continues here: every line of this request names it.
      const tp = req.headers.traceparent;
      return inScope(scopeFor(Array.isArray(tp) ? tp[0] : tp, id), () => serve(req, res, id));
    },
  ) as BankHttpServer;

  /**
   * A request through a trusted proxy counts for the client X-Forwarded-For names, until it is
   * answered; one too many is refused and the proxy's connection, which carries other clients
   * too, is kept.
   */
  function admitForwarded(req: http.IncomingMessage, res: http.ServerResponse): boolean {
    // The peer is the last hop; past it, only what a trusted proxy forwarded is read.
    const peer = req.socket.remoteAddress ?? "";
    const client = proxies.trusted(peer)
      ? proxies.clientOf([...forwardedHops(req.headers["x-forwarded-for"]), peer])
      : proxies.clientOf([peer]);
    const n = (forwarded.get(client) ?? 0) + 1;
    if (n > maxPerAddress) {
      const body = JSON.stringify({ statusCode: 503, message: TOO_MANY });
      res.writeHead(503, {
        "content-type": "application/json; charset=utf-8",
        "retry-after": "1",
        "content-length": String(Buffer.byteLength(body)),
      });
      res.end(body);
      req.resume();
      return false;
    }
    forwarded.set(client, n);
    res.once("close", () => {
      const left = (forwarded.get(client) ?? 1) - 1;
      if (left > 0) forwarded.set(client, left);
      else forwarded.delete(client);
    });
    return true;
  }

  async function serve(req: http.IncomingMessage, res: http.ServerResponse, id: string) {
    inFlight++;
    const started = performance.now();
    // Once a stop has begun, each answer closes its connection: the client's next request goes elsewhere.
    const answer = (r: Reply) => {
      if (closing) res.setHeader("connection", "close");
      if (httpDate) res.setHeader("date", httpDate());
      send(res, ctx, r);
    };
    const url = new URL(req.url ?? "/", "http://bank.local");
    const ctx: RequestContext = {
      id,
      method: req.method ?? "GET",
      url,
      req,
      xmlBody: isXmlContent(req),
      wantsXml: wantsXml(req),
      rawBody: undefined,
      header: (n) => {
        const v = req.headers[n.toLowerCase()];
        return Array.isArray(v) ? v[0] : v;
      },
    };
    try {
      const handler = router.match(ctx.method, url.pathname);
      if (!handler) {
        throw router.hasPath(url.pathname)
          ? new HttpError(405, `Method ${ctx.method} is not allowed on ${url.pathname}`)
          : new HttpError(404, `No such resource: ${url.pathname}`);
      }
      if (
        ctx.method === "POST" ||
        ctx.method === "PUT" ||
        ctx.method === "DELETE" ||
        ctx.method === "PATCH"
      ) {
        const text = await readBody(req);
        if (text.trim().length) ctx.rawBody = decodeBody(text, ctx.xmlBody);
      }
      await opts.beforeRequest?.();
      answer(await handler(ctx));
    } catch (err) {
      // The client went away (or was timed out) before its request arrived: no one to answer.
      if (res.headersSent || req.socket.destroyed) return;
      if (err instanceof BodyTooLarge) {
        res.setHeader("connection", "close");
        answer({
          status: 400,
          body: errorBody(
            badRequest([{ field: "body", message: `must be at most ${MAX_BODY_BYTES} bytes` }]),
          ),
        });
        req.resume();
      } else if (err instanceof HttpError) {
        answer({
          status: err.status,
          body: errorBody(err),
          headers: err.headers,
          xmlRoot: "Error",
        });
      } else {
        log.error("unhandled error", { requestId: ctx.id, method: ctx.method, path: url.pathname, err });
        answer({
          status: 500,
          body: { statusCode: 500, message: `Internal error (request ${ctx.id})` },
          xmlRoot: "Error",
        });
      }
    } finally {
      inFlight--;
      const seconds = (performance.now() - started) / 1000;
      opts.metrics?.observe(methodLabel(ctx.method), router.routeOf(url.pathname), res.statusCode, seconds);
      if (opts.logRequests) log.request(ctx.method, url.pathname, res.statusCode, Math.round(seconds * 1000));
    }
  }
  server.inFlight = () => inFlight;
  server.closeAfterEachAnswer = () => {
    closing = true;
  };
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.idleSoon = (ms: number) => {
    // A request that arrives meanwhile is answered in full: Node clears the timer while one is under way.
    for (const socket of sockets) if (!busy.has(socket)) socket.setTimeout(ms);
  };
  // A client that never finishes its request (a Content-Length larger than what it sends, headers
  // one byte at a time) must not hold a socket: it gets a 408 and the connection is closed.
  server.requestTimeout = requestTimeout;
  server.headersTimeout = requestTimeout;
  server.keepAliveTimeout = 65_000;
  limitConnectionsPerAddress(server, maxPerAddress, proxies);
  return server;
}

/**
 * Bounds the connections one address holds, so that slow clients from one place cannot take
 * every socket the server has; the refused connection gets a 503 in the gateway's shape.
 */
function limitConnectionsPerAddress(server: http.Server, max: number, proxies: TrustedProxies) {
  const open = new Map<string, number>();
  server.on("connection", (socket) => {
    // A trusted proxy speaks for many clients: they are counted per request, by X-Forwarded-For.
    if (proxies.trusted(socket.remoteAddress)) return;
    const address = socket.remoteAddress ?? "";
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      const body = JSON.stringify({ statusCode: 503, message: TOO_MANY });
      socket.end(
        `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      socket.destroySoon();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

function decodeBody(text: string, xml: boolean): unknown {
  if (xml) {
    try {
      return parseXmlBody(text);
    } catch (e) {
      throw badRequest([{ field: "body", message: e instanceof XmlError ? e.message : "malformed XML" }]);
    }
  }
  try {
    return readJsonBody(text);
  } catch (e) {
    if (e instanceof JsonBodyError) throw badRequest([{ field: e.field, message: e.message }]);
    throw badRequest([{ field: "body", message: "malformed JSON" }]);
  }
}
