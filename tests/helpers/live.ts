// What the live-balance and alert tests share: the demo bank of a started dashboard (SEN
// transfers with the demo key, sandbox deposits), a plain Server-Sent Events client that carries
// a browser's session cookie.
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext } from "playwright-core";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { type RunningDashboard, startDashboard } from "./dashboard.ts";

/** What `npm start` writes to bank-demo.json in its data folder: the demo customer's keys and the bank. */
export interface DemoKeys {
  bankUrl: string;
  subscriptionKey: string;
  sandboxKey: string;
  webhookSecret: string;
}

export function readDemoKeys(dataDir: string): DemoKeys {
  return JSON.parse(fs.readFileSync(path.join(dataDir, "bank-demo.json"), "utf8")) as DemoKeys;
}

/**
 * The one-time account link (`…/account-link#token`) e-mailed to `to`, read from the sandbox
 * mail box `npm start` delivers to (a person's /mail), waiting up to a minute for it to arrive.
 */
export async function mailedAccountLink(dataDir: string, to: string, timeoutMs = 60_000): Promise<string> {
  const demo = readDemoKeys(dataDir);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await fetch(`${demo.bankUrl}/sandbox/mail?to=${encodeURIComponent(to)}`, {
      headers: { [BANK_HEADERS.sandboxKey]: demo.sandboxKey },
    });
    const mail = (await r.json()) as { text: string }[];
    const link = mail.map((m) => /https?:\/\/\S+\/account-link#\S+/.exec(m.text)?.[0]).find(Boolean);
    if (link) return link;
    if (Date.now() > deadline) throw new Error(`no account link was e-mailed to ${to}`);
    await new Promise((res) => setTimeout(res, 1_000));
  }
}

/**
 * A second dashboard instance beside a started one on the same PostgreSQL database and bank, with
 * its session secret and demo users. The bank posts to the first, as to instances behind one
 * load-balanced address; events reach the second through the database.
 */
export function startSecondInstance(
  first: RunningDashboard,
  databaseUrl: string,
  timeoutMs = 900_000,
): Promise<RunningDashboard> {
  const demo = readDemoKeys(first.dataDir);
  return startDashboard({
    env: {
      DATABASE_URL: databaseUrl,
      BANK_API_URL: demo.bankUrl,
      BANK_SUBSCRIPTION_KEY: demo.subscriptionKey,
      BANK_WEBHOOK_SECRET: demo.webhookSecret,
      DASHBOARD_WEBHOOK_BASE_URL: first.url,
    },
    prepare: (dir) => {
      for (const f of ["dashboard-secret", "demo-users.json"])
        fs.copyFileSync(path.join(first.dataDir, f), path.join(dir, f));
    },
    timeoutMs,
  });
}

export interface DemoBank extends DemoKeys {
  /** POSTs to the bank's /sandbox with the sandbox key; the JSON answer, or a throw on a non-2xx. */
  sandbox<T = unknown>(p: string, body: unknown): Promise<T>;
  /** GETs the bank's /sandbox with the sandbox key; the JSON answer, or a throw on a non-2xx. */
  sandboxGet<T = unknown>(p: string): Promise<T>;
  /** The bank's own business day (its sandbox clock, its time zone). */
  today(): Promise<string>;
  /** A SEN transfer with the demo key; resolves on the bank's 200. */
  transfer(from: string, to: string, dollars: number): Promise<void>;
  deposit(accountNumber: string, dollars: number, description?: string): Promise<void>;
  /** Registers a webhook with the demo key (a receiver of the test's own). */
  webhooks(): Promise<{ WebHookId: string; AccountNumber: string; WebHookUrl: string; Emails: string }[]>;
}

/**
 * The demo customer's bank. Its own token needs a bank whose token interval is short
 * (BANK_TOKEN_INTERVAL_SECONDS=1): the dashboard holds the key's token of the interval.
 */
export function demoBank(dataDir: string): DemoBank {
  const demo = readDemoKeys(dataDir);
  let token: string | null = null;
  const auth = async () => {
    for (let i = 0; !token && i < 20; i++) {
      const r = await fetch(`${demo.bankUrl}/v2/access/token`, {
        headers: { [BANK_HEADERS.subscriptionKey]: demo.subscriptionKey },
      });
      if (r.status === 200) token = r.headers.get("authorization");
      else await new Promise((res) => setTimeout(res, 1100));
    }
    if (!token) throw new Error("no bank token for the demo key");
    return { [BANK_HEADERS.subscriptionKey]: demo.subscriptionKey, Authorization: token };
  };
  const sandbox = async <T>(p: string, body: unknown): Promise<T> => {
    const r = await fetch(`${demo.bankUrl}${p}`, {
      method: "POST",
      headers: { "content-type": "application/json", [BANK_HEADERS.sandboxKey]: demo.sandboxKey },
      body: JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${p}: ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  };
  const sandboxGet = async <T>(p: string): Promise<T> => {
    const r = await fetch(`${demo.bankUrl}${p}`, { headers: { [BANK_HEADERS.sandboxKey]: demo.sandboxKey } });
    if (!r.ok) throw new Error(`${p}: ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  };
  return {
    ...demo,
    sandbox,
    sandboxGet,
    async today() {
      return (await sandboxGet<{ businessDate: string }>("/sandbox/clock")).businessDate;
    },
    async transfer(from, to, dollars) {
      const r = await fetch(`${demo.bankUrl}/v2/account/transfersen`, {
        method: "POST",
        headers: { ...(await auth()), "content-type": "application/json" },
        body: JSON.stringify({ AccountNumberFrom: from, AccountNumberTo: to, Amount: dollars }),
      });
      const body = (await r.json()) as { ERROR?: unknown[] };
      if (r.status !== 200 || body.ERROR?.length)
        throw new Error(`transfer: ${r.status} ${JSON.stringify(body)}`);
    },
    async deposit(accountNumber, dollars, description = "DEPOSIT") {
      await sandbox("/sandbox/deposits", { accountNumber, amount: dollars, description });
    },
    async webhooks() {
      const r = await fetch(`${demo.bankUrl}/v2/webhooks/get`, { headers: await auth() });
      if (r.status !== 200) throw new Error(`webhooks: ${r.status}`);
      return (await r.json()) as Awaited<ReturnType<DemoBank["webhooks"]>>;
    },
  };
}

export interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
  /** When the message arrived (performance.now()). */
  at: number;
}

export interface SseClient {
  messages: SseMessage[];
  /** Resolves once the stream answered. */
  opened: Promise<void>;
  /** Resolves once the server ended the stream (or it was closed here). */
  closed: Promise<void>;
  waitFor(pred: (m: SseMessage[]) => boolean, timeoutMs?: number): Promise<SseMessage[]>;
  lastId(): string | undefined;
  close(): void;
}

/** A plain SSE client (what EventSource does, without the automatic reconnect). */
export function sseClient(url: string, cookie: string, lastEventId?: string): SseClient {
  const abort = new AbortController();
  const messages: SseMessage[] = [];
  let ended = () => {};
  const closed = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const opened = (async () => {
    const res = await fetch(url, {
      headers: {
        cookie,
        accept: "text/event-stream",
        ...(lastEventId ? { "last-event-id": lastEventId } : {}),
      },
      signal: abort.signal,
    });
    if (res.status !== 200 || !res.body) throw new Error(`events: ${res.status}`);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
        if (done) return ended();
        buffer += decoder.decode(value, { stream: true });
        for (let i = buffer.indexOf("\n\n"); i >= 0; i = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const m: SseMessage = { at: performance.now() };
          for (const line of block.split("\n")) {
            const at = line.indexOf(": ");
            const k = at < 0 ? line : line.slice(0, at);
            const v = at < 0 ? "" : line.slice(at + 2);
            if (k === "id" || k === "event" || k === "data") m[k] = v;
          }
          if (m.event) messages.push(m);
        }
      }
    })();
  })();
  opened.catch(() => ended());
  return {
    messages,
    opened,
    closed,
    async waitFor(pred, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      while (!pred(messages)) {
        if (Date.now() > end) throw new Error(`events did not arrive: ${JSON.stringify(messages)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return messages;
    },
    lastId: () => messages.filter((m) => m.id).at(-1)?.id,
    close: () => abort.abort(),
  };
}

/** The session cookie of a signed-in browser context, as a Cookie header. */
export async function sessionCookie(context: BrowserContext): Promise<string> {
  const cookies = await context.cookies();
  return cookies
    .filter((c) => c.name.includes("next-auth"))
    .map((c) => `${c.name}=${c.value}`)
    .join("; ");
}

/** One request of a sign-in, read to the end (a CookieBrowser's `request`, or a cookie jar's). */
export type SignInSend = (p: string, init?: RequestInit) => Promise<{ status: number; text: string }>;

export interface SignInOptions {
  /** The code of the second factor, sent as the sign-in form sends it. */
  totp?: string;
  /** Headers the credentials request carries besides next-auth's (X-Forwarded-For, say). */
  headers?: Record<string, string>;
  /** Where the requests go; by default a cookie jar of its own over fetch. */
  send?: SignInSend;
  /** Each request of the default `send` gives up after this long (no limit by default). */
  timeoutMs?: number;
  /** Told of the credentials request's answer: its status, when it was sent and answered, and whether a session came back. */
  onCredentials?: (a: { status: number; t0: number; t1: number; signedIn: boolean }) => void;
}

/**
 * One credentials sign-in through next-auth, as the sign-in form does it: the CSRF token, then the
 * credentials callback. Answers the error next-auth names (`invalid`, `locked:30`, …), or null when
 * signed in, and the Cookie header of the jar when `send` is its own.
 */
export async function signInAttempt(
  base: string,
  email: string,
  password: string,
  opts: SignInOptions = {},
): Promise<{ error: string | null; cookie: string }> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const send: SignInSend =
    opts.send ??
    (async (p, init = {}) => {
      const headers = new Headers(init.headers);
      if (jar.size) headers.set("cookie", cookie());
      const res = await fetch(new URL(p, base), {
        ...init,
        headers,
        redirect: "manual",
        ...(opts.timeoutMs ? { signal: AbortSignal.timeout(opts.timeoutMs) } : {}),
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(";");
        const i = pair.indexOf("=");
        jar.set(pair.slice(0, i), pair.slice(i + 1));
      }
      return { status: res.status, text: await res.text() };
    });
  const { csrfToken } = JSON.parse((await send("/api/auth/csrf")).text) as { csrfToken: string };
  const t0 = Date.now();
  const res = await send("/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base, ...opts.headers },
    body: new URLSearchParams({
      csrfToken,
      email,
      password,
      ...(opts.totp === undefined ? {} : { totp: opts.totp }),
      json: "true",
    }),
  });
  opts.onCredentials?.({ status: res.status, t0, t1: Date.now(), signedIn: /session-token=/.test(cookie()) });
  // next-auth answers JSON naming where to go; anything else (a stopping server's 503) is no session.
  let url: string | undefined;
  try {
    url = (JSON.parse(res.text) as { url?: string }).url;
  } catch {}
  return {
    error: url ? new URL(url, base).searchParams.get("error") : `status ${res.status}`,
    cookie: cookie(),
  };
}

/** Signs in through next-auth's credentials endpoint, as the sign-in form does: the Cookie header. */
export async function signInHttp(base: string, email: string, password: string): Promise<string> {
  const { error, cookie } = await signInAttempt(base, email, password);
  if (error || !/session-token=/.test(cookie)) throw new Error(`sign-in failed${error ? `: ${error}` : ""}`);
  return cookie;
}

/** Signs the session of the Cookie header out through next-auth, as the sign-out button does. */
export async function signOutHttp(base: string, cookie: string): Promise<void> {
  const { csrfToken } = (await (await fetch(`${base}/api/auth/csrf`, { headers: { cookie } })).json()) as {
    csrfToken: string;
  };
  const res = await fetch(`${base}/api/auth/signout`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: base },
    body: new URLSearchParams({ csrfToken, json: "true" }),
  });
  // next-auth clears the cookie on a sign-out it accepted (a bad CSRF token clears nothing).
  if (!res.headers.getSetCookie().some((c) => /session-token=;/.test(c)))
    throw new Error(`sign-out was not accepted: ${res.status}`);
}
