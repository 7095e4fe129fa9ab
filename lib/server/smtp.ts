// An SMTP server's address (`smtp://user:pass@host:587`, `smtps://…`, options as query parameters)
// as nodemailer options: one reading for the bank's webhook e-mail and the dashboard's own mail.

export interface SmtpSettings {
  /** The variable the address came from, named in errors (never the address: it holds the password). */
  variable: string;
  /** Connection, greeting and socket timeout: a stalled server fails the attempt, not the worker. */
  timeoutMs: number;
  /** Keep up to this many connections open between messages. */
  pool?: number;
}

export function smtpOptions(smtpUrl: string, s: SmtpSettings): Record<string, unknown> {
  let u: URL;
  try {
    u = new URL(smtpUrl);
  } catch {
    // URL's own error carries the input, password included: say what is wrong without it.
    throw new Error(`${s.variable} is not a valid URL`);
  }
  if (u.protocol !== "smtp:" && u.protocol !== "smtps:")
    throw new Error(`${s.variable} must be smtp:// or smtps://`);
  const options: Record<string, unknown> = {
    host: u.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: u.port ? Number(u.port) : u.protocol === "smtps:" ? 465 : 587,
    secure: u.protocol === "smtps:",
    ...(s.pool ? { pool: true, maxConnections: s.pool } : {}),
    connectionTimeout: s.timeoutMs,
    greetingTimeout: s.timeoutMs,
    socketTimeout: s.timeoutMs,
  };
  if (u.username)
    options.auth = { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) };
  for (const [k, raw] of u.searchParams) {
    const v = raw === "true" ? true : raw === "false" ? false : /^\d+$/.test(raw) ? Number(raw) : raw;
    if (k.startsWith("tls.")) options.tls = { ...(options.tls as object), [k.slice(4)]: v };
    else options[k] = v;
  }
  return options;
}
