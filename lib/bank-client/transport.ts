// HTTP/1.1 to the bank over node:http(s) with one keep-alive agent per protocol. A balance read
// spends a large share of the dashboard's CPU in the HTTP client: node:http with a plain timer
// costs a fraction of the platform fetch (Request/Response objects, web streams, an AbortSignal
// per call). Idle sockets are closed a second before the bank's announced keep-alive timeout
// (Node's agent reads the `Keep-Alive: timeout=N` hint), and a request that finds its reused
// socket closed by the bank is sent again at once on a new one when that is safe (see `send`).
import "server-only";
import http from "node:http";
import https from "node:https";
import { withTrace } from "../server/trace.ts";
import { noteBankDate } from "./bank-time.ts";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface Origin {
  protocol: "http:" | "https:";
  hostname: string;
  port: number;
}

/** No complete answer within the time allowed. */
export class TimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms / 1000} s`);
    this.name = "TimeoutError";
  }
}

const agents = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

export function parseOrigin(url: string): Origin {
  const u = new URL(url);
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new Error(`The bank's address must be http:// or https://, not ${u.protocol}`);
  return {
    protocol: u.protocol,
    // URL keeps the brackets of an IPv6 literal; node:http wants the bare address.
    hostname: u.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: Number(u.port) || (u.protocol === "https:" ? 443 : 80),
  };
}

const STALE_SOCKET = new Set(["ECONNRESET", "EPIPE"]);

/**
 * One request; resolves with the whole answer, rejects on a network failure or a TimeoutError.
 * `resendOnStaleSocket`: when the bank had already closed the kept-alive socket the request went
 * out on (reset before any answer), send it once more on a fresh socket. Only for requests that
 * are safe to repeat (reads, writes carrying an Idempotency-Key).
 */
/** One request to the bank, as `send` takes it. */
export interface Outgoing {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  timeoutMs: number;
  /**
   * Where the answer's text goes as it arrives, chunk by chunk, when its status makes it wanted
   * (the answer's `text` is then empty): a large answer need not be held whole.
   */
  sink?: (status: number) => ((chunk: string) => void) | null;
}

export async function send(
  origin: Origin,
  req: Outgoing,
  resendOnStaleSocket: boolean,
): Promise<RawResponse> {
  try {
    return await sendOnce(origin, req);
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { reusedSocket?: boolean };
    if (!resendOnStaleSocket || !err.reusedSocket || !STALE_SOCKET.has(err.code ?? "")) throw e;
    return sendOnce(origin, req);
  }
}

function sendOnce(
  origin: Origin,
  { method, path, headers, body, timeoutMs, sink }: Outgoing,
): Promise<RawResponse> {
  const sentAt = Date.now();
  return new Promise((resolve, reject) => {
    let settled = false;
    let answered = false;
    const finish = (err: Error | null, res?: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        // A reset on a reused socket before any answer: the bank closed it while idle.
        if (!answered && req.reusedSocket) (err as Error & { reusedSocket?: boolean }).reusedSocket = true;
        reject(err);
      } else resolve(res as RawResponse);
    };
    const mod = origin.protocol === "https:" ? https : http;
    const req = mod.request(
      {
        agent: agents[origin.protocol],
        hostname: origin.hostname,
        port: origin.port,
        method,
        path,
        // Inside a dashboard request, the bank's log lines name its trace.
        headers: withTrace(
          body === undefined ? headers : { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        ),
      },
      (res) => {
        answered = true;
        noteBankDate(res.headers.date, sentAt, Date.now());
        res.setEncoding("utf8");
        let text = "";
        const onChunk = sink?.(res.statusCode ?? 0);
        res.on(
          "data",
          onChunk ??
            ((chunk: string) => {
              text += chunk;
            }),
        );
        res.on("end", () => {
          if (!res.complete) return finish(new Error("the connection closed before the answer was complete"));
          finish(null, { status: res.statusCode ?? 0, headers: res.headers, text });
        });
        res.on("error", (e) => finish(e));
        res.on("aborted", () => finish(new Error("the connection closed before the answer was complete")));
      },
    );
    const timer = setTimeout(() => {
      finish(new TimeoutError(timeoutMs));
      req.destroy();
    }, timeoutMs);
    req.on("error", (e) => finish(e));
    req.end(body);
  });
}
