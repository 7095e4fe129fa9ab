// The dashboard's production server: `next start`, plus one thing Next does not do. Next passes a
// client's X-Forwarded-For through untouched (it fills the header from the connection only when
// the request has none), so a route handler cannot tell the address of the connection from an
// address any client typed. This server appends the connection's address to X-Forwarded-For, as
// a proxy does: the rightmost entry is then always the peer, and lib/auth/client-address.ts walks
// the header from the right, believing only the proxies named in TRUSTED_PROXIES.
// Usage: node scripts/dashboard-server.js [-H host] [-p port]  (npm start runs it)
import http from "node:http";
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

const server = http.createServer((req, res) => {
  const peer = req.socket.remoteAddress ?? "";
  const prior = req.headers["x-forwarded-for"];
  const chain = Array.isArray(prior) ? prior.join(", ") : prior;
  req.headers["x-forwarded-for"] = chain ? `${chain}, ${peer}` : peer;
  handle(req, res);
});
server.listen(port, hostname, () => {
  console.log(`Dashboard server listening on http://${hostname}:${port}`);
});

// With NEXT_MANUAL_SIG_HANDLE (as `npm start` runs it) the graceful stop is the dashboard's own
// (instrumentation.ts, lib/operations/lifecycle.ts); otherwise stop at once, as `next start` does.
if (!process.env.NEXT_MANUAL_SIG_HANDLE)
  for (const sig of ["SIGINT", "SIGTERM"]) {
    process.on(sig, () => {
      server.close();
      process.exit(0);
    });
  }
