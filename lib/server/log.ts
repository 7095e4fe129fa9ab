// JSON logs through pino, one line per event, for both programs. Every line written while a
// request is served carries its request id and trace id (lib/server/trace.ts). Secrets never
// reach a line: pino's `redact` censors the known secret fields, and `redact()` below also
// replaces any field whose name says secret, and JWT-, key- and URL-credential-shaped values, at
// any depth (a token can hide in an error message).
import pino from "pino";
import { currentScope } from "./trace.ts";

const SECRET_NAMES =
  /(authorization|subscription[-_]?key|ocp-apim|password|secret|token|cookie|sandbox[-_]?key|totp|smtp)/i;
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
const KEYS = /\b(sk|sbx|whsec)_[A-Za-z0-9_-]{8,}/g;
const URL_CREDENTIALS = /(\w+:\/\/[^:/\s]+:)[^@/\s]+@/g;
const SECRET_SHAPE = /eyJ|sk_|sbx_|whsec_|:\/\//;

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
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value instanceof Error)
    return { name: value.name, message: redact(value.message), stack: redact(value.stack) };
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[k] = SECRET_NAMES.test(k) ? "[redacted]" : redact(v, depth + 1);
    return out;
  }
  return value;
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

/**
 * Lines of warn and error go to stderr, the rest to stdout. Stdout is buffered: lines are written
 * 4 KB at a time, or every 200 ms, by a write that never blocks the event loop (a synchronous
 * write per line to a pipe cost the bank a tenth of its CPU per SEN transfer, and blocked it
 * whenever the log collector fell behind). What is buffered is written when the process exits;
 * a process killed with SIGKILL loses at most its last 200 ms of info lines. Warnings and errors
 * are written at once, so the last words of a crash are on stderr.
 */
function openRoot(): pino.Logger {
  const out = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: FLUSH_MS });
  return createLogRoot(
    pino.multistream(
      [
        { level: "debug", stream: out },
        { level: "warn", stream: pino.destination({ dest: 2, sync: true }) },
      ],
      { dedupe: true },
    ),
  );
}

/** A root logger writing to `stream`: the process's own (stdout and stderr), or a test's. */
export function createLogRoot(stream: pino.DestinationStream): pino.Logger {
  return pino(
    {
      level: "debug",
      messageKey: "msg",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      // Inside a request: its ids, on every line.
      mixin() {
        const s = currentScope();
        return s ? { requestId: s.requestId, traceId: s.traceId, spanId: s.spanId } : {};
      },
    },
    stream,
  );
}

// One root per process (kept on globalThis): route bundles may load this module more than once.
const ROOT = Symbol.for("treasury.logRoot");
const g = globalThis as { [ROOT]?: pino.Logger };

function root(): pino.Logger {
  g[ROOT] ??= openRoot();
  return g[ROOT];
}

export function createLogger(name: string, opts: { quiet?: boolean; root?: pino.Logger } = {}) {
  const quiet = opts.quiet ?? TESTING;
  const child = (opts.root ?? root()).child({ name }, { level: quiet ? "error" : DEBUG ? "debug" : "info" });
  const write = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (!child.isLevelEnabled(level)) return;
    child[level](fields ? (redact(fields) as object) : {}, redact(msg) as string);
  };
  return {
    debug: (msg: string, f?: Record<string, unknown>) => write("debug", msg, f),
    info: (msg: string, f?: Record<string, unknown>) => write("info", msg, f),
    warn: (msg: string, f?: Record<string, unknown>) => write("warn", msg, f),
    error: (msg: string, f?: Record<string, unknown>) => write("error", msg, f),
  };
}
export type Logger = ReturnType<typeof createLogger>;
