// Starts the real bank on a free port (PGlite in a temporary directory, or a fresh PostgreSQL
// database with `postgres: true`) and gives tests an HTTP client for /v2 and /sandbox.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type RunningBank, type StartBankOptions, startBank } from "../../bank/app.ts";
import { loadBankConfig } from "../../bank/config.ts";
import { BANK_SCHEMA_SOURCE } from "../../bank/db/client.ts";
import type { SandboxMail } from "../../bank/sandbox/notify.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { createTestDatabase, PG_URL } from "./databases.ts";
import { copyMigratedPglite } from "./pglite-template.ts";

export interface TestBank {
  url: string;
  sandboxKey: string;
  running: RunningBank;
  dataDir?: string;
  databaseUrl?: string;
  close(): Promise<void>;
}

export async function startTestBank(
  opts: {
    postgres?: boolean;
    env?: Record<string, string>;
    dataDir?: string;
    databaseUrl?: string;
    /** The name service the bank resolves webhook hosts through (a test's own DNS). */
    lookupHost?: StartBankOptions["lookupHost"];
  } = {},
): Promise<TestBank> {
  let dataDir = opts.dataDir;
  let databaseUrl = opts.databaseUrl;
  let drop: (() => Promise<void>) | undefined;
  if (opts.postgres && !databaseUrl) {
    if (!PG_URL) throw new Error("TEST_DATABASE_URL is not set");
    const d = await createTestDatabase(PG_URL);
    databaseUrl = d.url;
    drop = d.drop;
  }
  const ownDir = !databaseUrl && !dataDir;
  if (ownDir) {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bank-test-"));
    await copyMigratedPglite(BANK_SCHEMA_SOURCE, dataDir);
  }
  const sandboxKey = "sbx_test_key_0123456789";
  const config = loadBankConfig({
    BANK_PORT: "0",
    BANK_SANDBOX_KEY: sandboxKey,
    BANK_TOKEN_INTERVAL_SECONDS: "300",
    ...(databaseUrl ? { BANK_DATABASE_URL: databaseUrl } : { BANK_DATA_DIR: dataDir as string }),
    ...opts.env,
  });
  const running = await startBank(config, { quiet: true, lookupHost: opts.lookupHost });
  return {
    url: running.url,
    sandboxKey,
    running,
    dataDir,
    databaseUrl,
    async close() {
      await running.close();
      if (ownDir && dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      if (drop) await drop();
    },
  };
}

export interface CallOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Send the body as XML text and ask for XML back. */
  xml?: string;
  headers?: Record<string, string>;
}

/**
 * What a test reads from an answer it has not typed. Tests assert on the bank's JSON field by
 * field, and most answers are read loosely; a test that relies on a shape names the contract's
 * type (`api<PaymentRecord[]>`, `sandbox<SandboxDelivery[]>`), the one place `any` is allowed.
 */
// biome-ignore lint/suspicious/noExplicitAny: the untyped answer, see above
export type LooseJson = any;

export interface CallResult<T = LooseJson> {
  status: number;
  headers: Headers;
  text: string;
  json: T;
}

export async function call<T = LooseJson>(
  base: string,
  method: string,
  p: string,
  o: CallOptions = {},
): Promise<CallResult<T>> {
  const u = new URL(p, base);
  for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  let body: string | undefined;
  if (o.xml !== undefined) {
    headers["content-type"] ??= "application/xml";
    headers.accept ??= "application/xml";
    body = o.xml;
  } else if (o.body !== undefined) {
    headers["content-type"] ??= "application/json";
    body = typeof o.body === "string" ? o.body : JSON.stringify(o.body);
  }
  const res = await fetch(u, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json: json as T };
}

/** A sandbox customer with a token: everything a test needs to speak to /v2 as that customer. */
export interface TestCustomer {
  customerId: number;
  key: string;
  token: string;
  webhookSecret: string;
  /** Calls /v2 with this customer's key and token. */
  api<T = LooseJson>(method: string, p: string, o?: CallOptions): Promise<CallResult<T>>;
  account(type: "DDA" | "SEN", balance?: number): Promise<string>;
}

export async function sandbox<T = LooseJson>(
  bank: Pick<TestBank, "url" | "sandboxKey">,
  method: string,
  p: string,
  body?: unknown,
) {
  const r = await call<T>(bank.url, method, p, {
    body,
    headers: { [BANK_HEADERS.sandboxKey]: bank.sandboxKey },
  });
  if (r.status >= 300) throw new Error(`${method} ${p} answered ${r.status}: ${r.text}`);
  return r.json as T;
}

/** A sandbox customer's keys, and accounts opened for it through /sandbox (no token yet). */
export interface SandboxCustomer {
  customerId: number;
  subscriptionKey: string;
  webhookSecret: string;
  account(type: "DDA" | "SEN", balance?: number): Promise<string>;
}

export async function sandboxCustomer(
  bank: Pick<TestBank, "url" | "sandboxKey">,
  name = "Test Customer Inc",
): Promise<SandboxCustomer> {
  const c = await sandbox<{ customerId: number; subscriptionKey: string; webhookSecret: string }>(
    bank,
    "POST",
    "/sandbox/customers",
    { name },
  );
  return {
    ...c,
    account: async (type, balance) =>
      (
        await sandbox<{ accountNumber: string }>(bank, "POST", "/sandbox/accounts", {
          customerId: c.customerId,
          type,
          balance,
        })
      ).accountNumber,
  };
}

export async function newCustomer(
  bank: Pick<TestBank, "url" | "sandboxKey">,
  name = "Test Customer Inc",
): Promise<TestCustomer> {
  const c = await sandboxCustomer(bank, name);
  const t = await call(bank.url, "GET", "/v2/access/token", {
    headers: { [BANK_HEADERS.subscriptionKey]: c.subscriptionKey },
  });
  if (t.status !== 200) throw new Error(`token: ${t.status} ${t.text}`);
  const token = t.headers.get("authorization") as string;
  return {
    customerId: c.customerId,
    key: c.subscriptionKey,
    token,
    webhookSecret: c.webhookSecret,
    api: (method, p, o = {}) =>
      call(bank.url, method, p, {
        ...o,
        headers: {
          [BANK_HEADERS.subscriptionKey]: c.subscriptionKey,
          Authorization: token,
          ...(o.headers ?? {}),
        },
      }),
    account: c.account,
  };
}

/** The storage backends a suite runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const BACKENDS: { name: string; postgres: boolean }[] = [
  { name: "PGlite", postgres: false },
  ...(PG_URL ? [{ name: "PostgreSQL", postgres: true }] : []),
];

/** A SEN transfer body in the wire's PascalCase. */
export function transferBody(from: string, to: string, amount: number, extra: Record<string, unknown> = {}) {
  return { AccountNumberFrom: from, AccountNumberTo: to, Amount: amount, ...extra };
}

/** A POST /v2/payment body: a domestic wire to one beneficiary, fields as the wire spells them. */
export function wireBody(account: string, amount: number, extra: Record<string, unknown> = {}) {
  return {
    originator_account_number: account,
    amount,
    receiving_bank_routing_id: "011000015",
    receiving_bank_name: "FIRST EXAMPLE BANK",
    beneficiary_name: "KITT M",
    beneficiary_account_number: "987654321",
    beneficiary_address1: "1 MAIN ST",
    ...extra,
  };
}

/** The same SEN transfer sent `times` at once under one idempotency key: every answer, in order. */
export function sameTransferAtOnce(c: TestCustomer, times: number, body: unknown, idempotencyKey: string) {
  return Promise.all(
    Array.from({ length: times }, () =>
      c.api("POST", "/v2/account/transfersen", {
        body,
        headers: { [BANK_HEADERS.idempotencyKey]: idempotencyKey },
      }),
    ),
  );
}

/** Reads an account's balance record through /v2. */
export async function balanceOf(c: TestCustomer, account: string) {
  const r = await c.api("GET", "/v2/account/balance", { query: { accountNumber: account } });
  if (r.status !== 200 || r.json.ERROR.length) throw new Error(`balance ${account}: ${r.status} ${r.text}`);
  return r.json.ResponseData[0] as { AVAILBAL: number; CURRBAL: number; TOTALHOLDS: number };
}

/** One message of the sandbox mail box, its attachments typed (`GET /sandbox/mail`). */
export type SandboxMailMessage = Omit<SandboxMail, "attachments"> & {
  attachments: { filename: string; contentType: string; contentBase64: string }[];
};

/** The sandbox mail box's messages to one address, as `GET /sandbox/mail?to=` answers them. */
export async function sandboxMailTo(
  bank: Pick<TestBank, "url" | "sandboxKey">,
  to: string,
): Promise<SandboxMailMessage[]> {
  return (
    await call<SandboxMailMessage[]>(bank.url, "GET", "/sandbox/mail", {
      query: { to },
      headers: { [BANK_HEADERS.sandboxKey]: bank.sandboxKey },
    })
  ).json;
}
