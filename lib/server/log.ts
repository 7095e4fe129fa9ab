// Structured one-line logs that never carry a secret: known secret names and JWT-shaped,
// key-shaped values are replaced before anything is written.
const SECRET_NAMES =
  /(authorization|subscription[-_]?key|ocp-apim|password|secret|token|cookie|sandbox[-_]?key|totp|smtp)/i;
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
const KEYS = /\b(sk|sbx|whsec)_[A-Za-z0-9_-]{8,}/g;
const URL_CREDENTIALS = /(\w+:\/\/[^:/\s]+:)[^@/\s]+@/g;

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return "[…]";
  if (typeof value === "string") {
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

export type LogLevel = "debug" | "info" | "warn" | "error";

// The one place logging reads the environment, shared by both programs: under the test runner
// (NODE_ENV=test) a logger writes errors only, unless told otherwise; LOG_DEBUG adds debug lines.
const TESTING = process.env.NODE_ENV === "test";
const DEBUG = !!process.env.LOG_DEBUG;

export function createLogger(name: string, opts: { quiet?: boolean } = {}) {
  const quiet = opts.quiet ?? TESTING;
  const write = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (quiet && level !== "error") return;
    const line = JSON.stringify({
      t: new Date().toISOString(),
      level,
      name,
      msg: redact(msg),
      ...(redact(fields ?? {}) as object),
    });
    (level === "error" || level === "warn" ? process.stderr : process.stdout).write(`${line}\n`);
  };
  return {
    debug: (msg: string, f?: Record<string, unknown>) => (DEBUG ? write("debug", msg, f) : undefined),
    info: (msg: string, f?: Record<string, unknown>) => write("info", msg, f),
    warn: (msg: string, f?: Record<string, unknown>) => write("warn", msg, f),
    error: (msg: string, f?: Record<string, unknown>) => write("error", msg, f),
  };
}
export type Logger = ReturnType<typeof createLogger>;
