// Real receivers for webhook tests: an HTTP server on 127.0.0.1 that records every notification
// and answers as told, an SMTP server that records every message, and the signature check a
// receiver would do.
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { createCustomer, createSandboxAccount, deposit } from "../../bank/sandbox/core.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { call, type TestBank } from "../helpers/bank.ts";

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Requests being answered now, and the most at once so far. */
  inFlight(): number;
  maxInFlight(): number;
  /** With `held`: answers every request kept so far, and every later one at once. */
  release(): void;
  /** Status to answer for the n-th request (0-based); 200 when it returns undefined. */
  answer: (n: number, r: Received) => number | undefined;
  /** Waits until `pred` holds over what was received, or throws after `ms`. */
  waitFor(pred: (r: Received[]) => boolean, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(
  opts: {
    port?: number;
    /** Address to listen on: 127.0.0.1 unless told (any 127.x address is this machine). */
    host?: string;
    answer?: Receiver["answer"];
    delayMs?: number;
    /** Keeps every answer until `release()`: a receiver exactly as slow as the test needs. */
    held?: boolean;
  } = {},
): Promise<Receiver> {
  const received: Received[] = [];
  let n = 0;
  let open = 0;
  let most = 0;
  let holding = opts.held ?? false;
  const kept: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    open++;
    most = Math.max(most, open);
    // Counted out as the answer is handed over, before the sender can see it and send another.
    let counted = true;
    const done = () => {
      if (counted) open--;
      counted = false;
    };
    res.on("finish", done);
    res.on("close", done);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(r);
      const status = receiver.answer(n++, r) ?? 200;
      const send = () => {
        res.writeHead(status, { "content-type": "text/plain" });
        res.end(status < 300 ? "ok" : "not now");
      };
      if (holding) kept.push(send);
      else if (opts.delayMs) setTimeout(send, opts.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const receiver: Receiver = {
    url: `http://${opts.host ?? "127.0.0.1"}:${port}/hooks/balance`,
    port,
    received,
    inFlight: () => open,
    maxInFlight: () => most,
    release: () => {
      holding = false;
      for (const send of kept.splice(0)) send();
    },
    answer: opts.answer ?? (() => 200),
    waitFor: (pred, ms = 15_000) => waitFor(() => (pred(received) ? received : undefined), ms),
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
  return receiver;
}

export interface MailMessage {
  from: string;
  to: string[];
  raw: string;
  headers: Record<string, string>;
  /** The text body, transfer encoding undone. */
  text: string;
}

function decodeQuotedPrintable(s: string): string {
  const bytes = Buffer.from(s.replace(/=\r?\n/g, ""), "latin1");
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 0x3d && i + 2 < bytes.length && /^[0-9A-F]{2}$/i.test(bytes.toString("latin1", i + 1, i + 3))) {
      out.push(Number.parseInt(bytes.toString("latin1", i + 1, i + 3), 16));
      i += 2;
    } else out.push(c);
  }
  return Buffer.from(out).toString("utf8");
}

function parseMessage(raw: string): Pick<MailMessage, "headers" | "text"> {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  let text = raw.slice(split + 4);
  const enc = (headers["content-transfer-encoding"] ?? "").toLowerCase();
  if (enc === "quoted-printable") text = decodeQuotedPrintable(text);
  else if (enc === "base64") text = Buffer.from(text, "base64").toString("utf8");
  return { headers, text: text.replace(/\r\n/g, "\n") };
}

export interface MailServer {
  url: string;
  messages: MailMessage[];
  logins: { user: string; pass: string }[];
  waitFor(pred: (m: MailMessage[]) => boolean, ms?: number): Promise<MailMessage[]>;
  close(): Promise<void>;
}

export async function startMailServer(
  opts: { user?: string; pass?: string; port?: number } = {},
): Promise<MailServer> {
  const messages: MailMessage[] = [];
  const logins: { user: string; pass: string }[] = [];
  const server = new SMTPServer({
    disabledCommands: opts.user ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    authOptional: !opts.user,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      logins.push({ user: auth.username ?? "", pass: auth.password ?? "" });
      if (auth.username === opts.user && auth.password === opts.pass) cb(null, { user: auth.username });
      else cb(new Error("Invalid username or password"));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMessage(raw),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  const cred = opts.user ? `${encodeURIComponent(opts.user)}:${encodeURIComponent(opts.pass ?? "")}@` : "";
  return {
    url: `smtp://${cred}127.0.0.1:${port}`,
    messages,
    logins,
    waitFor: (pred, ms = 15_000) => waitFor(() => (pred(messages) ? messages : undefined), ms),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** What a receiver does: recompute the Standard Webhooks signature and compare. */
export function verifySignature(secret: string, headers: http.IncomingHttpHeaders, body: string): boolean {
  const id = String(headers["webhook-id"] ?? "");
  const ts = String(headers["webhook-timestamp"] ?? "");
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = `v1,${createHmac("sha256", key).update(`${id}.${ts}.${body}`).digest("base64")}`;
  return String(headers["webhook-signature"] ?? "")
    .split(" ")
    .some((s) => s.length === expected.length && timingSafeEqual(Buffer.from(s), Buffer.from(expected)));
}

export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 15_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A customer made inside the bank (with the sandbox off there is no /sandbox API to do it), with a
 * SEN account of `dollars`: it registers webhooks on that account, and `credit` moves its balance
 * by the same amount again.
 */
export async function directCustomer(bank: TestBank, name: string, dollars: number) {
  const b = bank.running.bank;
  const c = await createCustomer(b.db, { name });
  const t = await call(bank.url, "GET", "/v2/access/token", {
    headers: { [BANK_HEADERS.subscriptionKey]: c.subscriptionKey },
  });
  const token = t.headers.get("authorization") as string;
  const { accountNumber } = await createSandboxAccount(b, {
    customerId: c.customerId,
    type: "SEN",
    balance: dollars,
  });
  return {
    accountNumber,
    register: (body: Record<string, unknown>) =>
      call(bank.url, "POST", "/v2/webhooks/register", {
        body: { AccountNumber: accountNumber, ...body },
        headers: { [BANK_HEADERS.subscriptionKey]: c.subscriptionKey, Authorization: token },
      }),
    credit: () => deposit(b, accountNumber, dollars),
  };
}
