// JSON logs through pino, one line per event, for both programs. Every line written while a
// request is served carries its request id and trace id (lib/server/trace.ts). Secrets never
// reach a line: pino's `redact` censors the known secret fields, and `redact()` below also
// replaces any field whose name says secret, and JWT-, key- and URL-credential-shaped values, at
// any depth (a token can hide in an error message).
import fs from "node:fs";
import os from "node:os";
import pino from "pino";
import { currentScope } from "./trace.ts";

const SECRET_NAMES =
  /(authorization|subscription[-_]?key|ocp-apim|password|secret|token|cookie|sandbox[-_]?key|totp|smtp)/i;
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
const KEYS = /\b(sk|sbx|whsec)_[A-Za-z0-9_-]{8,}/g;
const URL_CREDENTIALS = /(\w+:\/\/[^:/\s]+:)[^@/\s]+@/g;
const SECRET_SHAPE = /eyJ|sk_|sbx_|whsec_|:\/\//;

/** Whether a field's name says it holds a secret, remembered per name (names come from code). */
const secretNames = new Map<string, boolean>();
function namesSecret(key: string): boolean {
  let yes = secretNames.get(key);
  if (yes === undefined) {
    yes = SECRET_NAMES.test(key);
    // Bounded: an object built from a client's keys must not grow the memory without end.
    if (secretNames.size < 1000) secretNames.set(key, yes);
  }
  return yes;
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return "[…]";
  if (typeof value === "string") {
    // Most text holds none of the shapes: one cheap test before three replacements.
    if (!SECRET_SHAPE.test(value)) return value;
    return value
      .replace(JWT, "[redacted-jwt]")
      .replace(KEYS, "$1_[redacted]")
      .replace(URL_CREDENTIALS, "$1[redacted]@");
  }
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value instanceof Error)
    return { name: value.name, message: redact(value.message), stack: redact(value.stack) };
  const out: Record<string, unknown> = {};
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    out[k] = namesSecret(k) ? "[redacted]" : redact((value as Record<string, unknown>)[k], depth + 1);
  }
  return out;
}

/**
 * The secret fields pino censors at the top level of a line and in its `headers`, `body` and
 * `req.headers`. Named paths only: a wildcard path (`*.token`) made each line cost ten times
 * more; deeper fields are the scrubber's (`redact` above).
 */
const SECRET_FIELDS = [
  "authorization",
  "Authorization",
  "cookie",
  "Cookie",
  "set-cookie",
  "ocp-apim-subscription-key",
  "Ocp-Apim-Subscription-Key",
  "subscriptionKey",
  "x-sandbox-key",
  "X-Sandbox-Key",
  "sandboxKey",
  "password",
  "newPassword",
  "currentPassword",
  "webhookSecret",
  "webhook_secret",
  "secret",
  "token",
  "accessToken",
  "access_token",
  "totp",
];
export const REDACT_PATHS = SECRET_FIELDS.flatMap((f) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(f) ? f : `["${f}"]`;
  const member = key.startsWith("[") ? key : `.${key}`;
  return [key, `headers${member}`, `body${member}`, `req.headers${member}`];
});

export type LogLevel = "debug" | "info" | "warn" | "error";

// The one place logging reads the environment, shared by both programs: under the test runner
// (NODE_ENV=test) a logger writes errors only, unless told otherwise; LOG_DEBUG adds debug lines.
const TESTING = process.env.NODE_ENV === "test";
const DEBUG = !!process.env.LOG_DEBUG;

/** How long a line of info may wait in the stdout buffer before it is written. */
const FLUSH_MS = 200;
/** Gathered lines are handed to stdout once they reach this size, whatever their age. */
const FLUSH_BYTES = 16 * 1024;

/**
 * Lines of info and debug, gathered and written to stdout 16 KB at a time, or 200 ms after the
 * first of them, by one write that never blocks the event loop (a synchronous write per line to a
 * pipe cost the bank a tenth of its CPU per SEN transfer, and blocked it whenever the log collector
 * fell behind). Gathering here rather than in the writer's own buffer keeps a line's cost to an
 * array push: the writer measures its whole buffer on every write it is handed.
 */
export function bufferedLines(
  out: { write(chunk: string): unknown },
  opts: { flushMs?: number; flushBytes?: number } = {},
) {
  const flushMs = opts.flushMs ?? FLUSH_MS;
  const flushBytes = opts.flushBytes ?? FLUSH_BYTES;
  let lines: string[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | null = null;
  /** What is gathered, as one chunk ("" when nothing is), given up by the buffer. */
  const take = () => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    const chunk = lines.length === 1 ? lines[0] : lines.join("");
    lines = [];
    size = 0;
    return chunk;
  };
  const flush = () => {
    const chunk = take();
    if (chunk) out.write(chunk);
  };
  return {
    take,
    write(line: string) {
      lines.push(line);
      size += line.length;
      if (size >= flushBytes) flush();
      else if (!timer) {
        timer = setTimeout(flush, flushMs);
        timer.unref();
      }
    },
    flush,
  };
}

/** pino's level number for warn: lines at it and above go to stderr. */
const WARN = 40;

/**
 * Lines of warn and error go to stderr at once, so the last words of a crash are there; the rest
 * to stdout through `bufferedLines`. What is gathered is written when the process exits; a process
 * killed with SIGKILL loses at most its last 200 ms of info lines.
 */
function openRoot(): pino.Logger {
  const stdout = pino.destination({ dest: 1, sync: false });
  const stderr = pino.destination({ dest: 2, sync: true });
  const gathered = bufferedLines(stdout);
  g[SINK] = gathered;
  // At exit there is no event loop left to finish a write: what stdout holds is written at once,
  // then what is gathered here, in that order (pino's own exit hook then finds nothing to do).
  process.prependListener("exit", () => {
    const chunk = gathered.take();
    try {
      stdout.flushSync();
      if (chunk) fs.writeSync(1, chunk);
    } catch {
      // A closed or full stdout at exit: nothing more can be done for these lines.
    }
  });
  process.prependListener("beforeExit", gathered.flush);
  // pino tells a destination marked as needing metadata the level of each line it writes.
  const destination = {
    [pino.symbols.needsMetadataGsym]: true,
    lastLevel: 0,
    write(line: string) {
      if (this.lastLevel >= WARN) stderr.write(line);
      else gathered.write(line);
    },
  };
  return createLogRoot(destination);
}

/**
 * pino's ISO time, built from the second's text kept while the second lasts: a `Date` and its
 * `toISOString` per line were an eighth of a request line's cost.
 */
let second = Number.NaN;
let secondText = "";
export function isoTime(): string {
  const now = Date.now();
  const s = Math.floor(now / 1000);
  if (s !== second) {
    second = s;
    // "2026-11-27T00:40:49." — the milliseconds follow.
    secondText = new Date(s * 1000).toISOString().slice(0, 20);
  }
  const ms = now - s * 1000;
  return `,"time":"${secondText}${ms < 10 ? "00" : ms < 100 ? "0" : ""}${ms}Z"`;
}

/** A root logger writing to `stream`: the process's own (stdout and stderr), or a test's. */
export function createLogRoot(stream: pino.DestinationStream): pino.Logger {
  return pino(
    {
      level: "debug",
      messageKey: "msg",
      timestamp: isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      // Inside a request: its ids, on every line.
      mixin() {
        const s = currentScope();
        if (!s) return {};
        // Shared work belongs to every request waiting on it, not to the one that started it.
        if (s.waiting) return { waitingRequests: [...s.waiting], traceId: s.traceId, spanId: s.spanId };
        return { requestId: s.requestId, traceId: s.traceId, spanId: s.spanId };
      },
    },
    stream,
  );
}

// One root per process (kept on globalThis): route bundles may load this module more than once.
const ROOT = Symbol.for("treasury.logRoot");
const SINK = Symbol.for("treasury.logSink");
const g = globalThis as { [ROOT]?: pino.Logger; [SINK]?: { write(line: string): void } };

function root(): pino.Logger {
  g[ROOT] ??= openRoot();
  return g[ROOT];
}

export function createLogger(
  name: string,
  opts: {
    quiet?: boolean;
    /** A root of the caller's own (tests); the process's otherwise. */
    root?: pino.Logger;
    /** Where request lines go when `root` is given (tests); the process's stdout otherwise. */
    lines?: { write(line: string): void };
  } = {},
) {
  const quiet = opts.quiet ?? TESTING;
  const child = (opts.root ?? root()).child({ name }, { level: quiet ? "error" : DEBUG ? "debug" : "info" });
  const write = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (!child.isLevelEnabled(level)) return;
    child[level](fields ? (redact(fields) as object) : {}, redact(msg) as string);
  };
  // The process's own stdout, unless the caller hands its own root (and perhaps its own lines).
  const sink = opts.root ? opts.lines : g[SINK];
  const base = `,"pid":${process.pid},"hostname":${JSON.stringify(os.hostname())},"name":${JSON.stringify(name)}`;
  return {
    debug: (msg: string, f?: Record<string, unknown>) => write("debug", msg, f),
    info: (msg: string, f?: Record<string, unknown>) => write("info", msg, f),
    warn: (msg: string, f?: Record<string, unknown>) => write("warn", msg, f),
    error: (msg: string, f?: Record<string, unknown>) => write("error", msg, f),
    /**
     * The line each answered request writes, at info: `msg` "request" with its method, path,
     * status and time. It is the one line every request pays for, so on the process's stdout it
     * is put together here, in the very shape and order of fields pino gives every other line
     * (the method and path scrubbed and quoted as any text is); under a test's own root it goes
     * through pino like the rest.
     */
    request: (method: string, path: string, status: number, ms: number) => {
      if (!sink) return write("info", "request", { method, path, status, ms });
      if (!child.isLevelEnabled("info")) return;
      const s = currentScope();
      const ids = s
        ? `,"requestId":${JSON.stringify(s.requestId)},"traceId":${JSON.stringify(s.traceId)},"spanId":${JSON.stringify(s.spanId)}`
        : "";
      sink.write(
        `{"level":"info"${isoTime()}${base}${ids},"method":${JSON.stringify(redact(method))},"path":${JSON.stringify(redact(path))},"status":${status},"ms":${ms},"msg":"request"}\n`,
      );
    },
  };
}
export type Logger = ReturnType<typeof createLogger>;
