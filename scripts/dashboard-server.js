// The dashboard's production server: `next start`, plus one thing Next does not do. Next passes a
// client's X-Forwarded-For through untouched (it fills the header from the connection only when
// the request has none), so a route handler cannot tell the address of the connection from an
// address any client typed. This server appends the connection's address to X-Forwarded-For, as
// a proxy does: the rightmost entry is then always the peer, and lib/auth/client-address.ts walks
// the header from the right, believing only the proxies named in TRUSTED_PROXIES.
// It also counts every request in the dashboard's metrics (pages, sign-in, unknown paths; the route
// wrappers name their route pattern through lib/server/http-front.ts) and does the server's part
// of a graceful stop: it stops accepting connections, answers each request with `Connection:
// close`, and lets the idle connections go before the process exits, so no client is reset.
// Usage: node scripts/dashboard-server.js [-H host] [-p port]  (npm start runs it)
import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import next from "next";

const args = process.argv.slice(2);
const arg = (flag, fallback) => {
  const i = args.indexOf(flag);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const hostname = arg("-H", process.env.HOSTNAME || "127.0.0.1");
const port = Number(arg("-p", process.env.PORT || "3000"));
const dir = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

const app = next({ dev: false, dir, hostname, port });
await app.prepare();
const handle = app.getRequestHandler();

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
// next-auth's own actions (sign-in is a POST to callback/credentials); anything else is one label.
const AUTH_ACTIONS = new Set(["signin", "signout", "callback", "session", "csrf", "providers", "error"]);

/** The label of a request no route wrapper named: bounded, whatever path a client sends. */
function routeLabel(url, status) {
  const pathname = (url ?? "/").split("?")[0];
  if (status === 404) return "(not found)";
  if (pathname.startsWith("/_next/")) return "/_next/*";
  if (pathname.startsWith("/api/auth/")) {
    const [action, provider] = pathname.slice("/api/auth/".length).split("/");
    if (!AUTH_ACTIONS.has(action)) return "/api/auth/[...nextauth]";
    return action === "callback" && provider === "credentials"
      ? "/api/auth/callback/credentials"
      : `/api/auth/${action}`;
  }
  // A page's segments that hold a digit are ids (an account number, a payee's id).
  return pathname
    .split("/")
    .map((seg) => (/\d/.test(seg) ? "[id]" : seg))
    .join("/")
    .slice(0, 100);
}

const METRICS = Symbol.for("treasury.dashboardMetrics");
const exchanges = new AsyncLocalStorage();
/** Answers under way (each its response), for a graceful stop. */
const underway = new Set();
let stopping = false;

const server = http.createServer((req, res) => {
  const peer = req.socket.remoteAddress ?? "";
  const prior = req.headers["x-forwarded-for"];
  const chain = Array.isArray(prior) ? prior.join(", ") : prior;
  req.headers["x-forwarded-for"] = chain ? `${chain}, ${peer}` : peer;
  // Once a stop has begun, each answer closes its connection: the client's next request goes elsewhere.
  if (stopping) res.setHeader("Connection", "close");
  const exchange = { route: undefined };
  const started = performance.now();
  underway.add(res);
  res.once("close", () => {
    underway.delete(res);
    const method = METHODS.has(req.method) ? req.method : "OTHER";
    const route = exchange.route ?? routeLabel(req.url, res.statusCode);
    globalThis[METRICS]?.http.observe(method, route, res.statusCode, (performance.now() - started) / 1000);
  });
  exchanges.run(exchange, () => handle(req, res));
});
// An idle kept-alive connection stays open for 65 s, as the bank's does: longer than the idle
// timeout of the usual load balancers (60 s) and clients, so the server is never the side that
// closes a connection the client is just sending on (Node's default, 5 s, resets such a request).
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
/** Open connections, so that a stop can give the idle ones a short timer. */
const sockets = new Set();
server.on("connection", (socket) => {
  sockets.add(socket);
  socket.once("close", () => sockets.delete(socket));
});
server.listen(port, hostname, () => {
  console.log(`Dashboard server listening on http://${hostname}:${port}`);
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const isStream = (res) => String(res.getHeader("content-type") ?? "").startsWith("text/event-stream");

globalThis[Symbol.for("treasury.httpFront")] = {
  exchange: () => exchanges.getStore(),
  stopAccepting() {
    if (stopping) return;
    stopping = true;
    // net.Server's close: it stops listening but, unlike http.Server's, does not drop the idle
    // kept-alive connections at once, where a client may be sending its next request that instant.
    net.Server.prototype.close.call(server);
    // An idle connection from now on is closed after a second (a client sends on a socket it has
    // just used, or not at all); one with a request under way closes after its answer.
    server.keepAliveTimeout = 1000;
    // The setting counts for connections that go idle from now on; those idle already wait on the
    // 65 s timer they were given, so each gets the one second here (a request that arrives on it
    // meanwhile is answered in full: Node clears the timer while a request is under way).
    const busy = new Set([...underway].map((res) => res.socket));
    for (const socket of sockets) if (!busy.has(socket)) socket.setTimeout(1000);
    for (const res of underway) if (!res.headersSent) res.setHeader("Connection", "close");
  },
  async answered(timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    while ([...underway].some((res) => !isStream(res)) && Date.now() < deadline) await sleep(20);
  },
  async closed(timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const open = await new Promise((r) => server.getConnections((e, n) => r(e ? 0 : n)));
      if (open === 0) return;
      await sleep(50);
    }
    server.closeAllConnections();
  },
};

// With NEXT_MANUAL_SIG_HANDLE (as `npm start` runs it) the graceful stop is the dashboard's own
// (instrumentation.ts, lib/operations/lifecycle.ts); otherwise stop at once, as `next start` does.
if (!process.env.NEXT_MANUAL_SIG_HANDLE)
  for (const sig of ["SIGINT", "SIGTERM"]) {
    process.on(sig, () => {
      server.close();
      process.exit(0);
    });
  }
