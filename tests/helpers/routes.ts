// Calls a dashboard route handler as Next calls it: a NextRequest carrying a real signed
// next-auth session cookie, against whatever database and bank client the test has set; and
// gives route tests their dashboard database, users and a bank client that counts its calls.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { encode } from "next-auth/jwt";
import { hashPassword } from "../../lib/auth/passwords.ts";
import type { Role } from "../../lib/auth/permissions.ts";
import { openSessionRecord } from "../../lib/auth/session-store.ts";
import { createUser } from "../../lib/auth/users.ts";
import type { EndpointName } from "../../lib/bank-api/endpoints.ts";
import { BankClient, type CallOptions } from "../../lib/bank-client/client.ts";
import { setBankClient, TokenManager } from "../../lib/bank-client/index.ts";
import { config } from "../../lib/config.ts";
import { type DashboardDb, getDashboardDb, openDashboardDb, setDashboardDb } from "../../lib/db/client.ts";
import { type SandboxCustomer, sandboxCustomer, startTestBank, type TestBank } from "./bank.ts";
import { createTestDatabase, PG_URL } from "./databases.ts";
import { copyMigratedPglite } from "./pglite-template.ts";

export interface SessionSubject {
  id: string;
  email: string;
  name: string;
}

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/**
 * A session cookie for the user, signed with the secret the dashboard reads (NEXTAUTH_SECRET), its
 * session recorded in the database the route handlers use, as sign-in records one.
 */
export async function cookieFor(
  user: SessionSubject,
  claims: Partial<{ signedInAt: number; lastActivity: number; sid: string }> = {},
  secret = process.env.NEXTAUTH_SECRET as string,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const signedInAt = claims.signedInAt ?? now;
  const sid =
    claims.sid ??
    (await openSessionRecord(await getDashboardDb(), user.id, new Date((signedInAt + 12 * 3600) * 1000)));
  const token = await encode({
    secret,
    token: {
      sub: user.id,
      email: user.email,
      name: user.name,
      signedInAt: now,
      lastActivity: now,
      ...claims,
      sid,
    },
  });
  return `next-auth.session-token=${token}`;
}

/** A NextRequest as Next builds one for a route handler: the session cookie, a JSON body, a signal. */
export function routeRequest(
  method: string,
  url: string,
  o: {
    cookie?: string;
    body?: unknown;
    /** The body's text as it is, sent instead of `body` as JSON. */
    rawBody?: string;
    headers?: Record<string, string>;
    signal?: AbortSignal;
  } = {},
): NextRequest {
  const headers: Record<string, string> = { ...o.headers };
  if (o.cookie) headers.cookie = o.cookie;
  const text = o.rawBody ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
  if (text !== undefined) headers["content-type"] ??= "application/json";
  return new NextRequest(new URL(url, process.env.NEXTAUTH_URL ?? "http://127.0.0.1:3999"), {
    method,
    headers,
    body: text,
    signal: o.signal,
  });
}

/** Invokes the module's handler for the method; the answer's status and parsed JSON body. */
export async function invoke(
  load: () => Promise<unknown>,
  method: string,
  url: string,
  o: {
    cookie?: string;
    /** Signs the request in as this user (a fresh session cookie), unless `cookie` is given. */
    as?: SessionSubject;
    body?: unknown;
    rawBody?: string;
    params?: Record<string, unknown>;
    headers?: Record<string, string>;
  } = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read whichever answer a route gives
): Promise<{ status: number; json: any; text: string; headers: Headers }> {
  const m = (await load()) as Record<string, Handler>;
  const handler = m[method];
  if (!handler) throw new Error(`${method} ${url} is not exported`);
  const cookie = o.cookie ?? (o.as ? await cookieFor(o.as) : undefined);
  const req = routeRequest(method, url, { cookie, body: o.body, rawBody: o.rawBody, headers: o.headers });
  const res = await handler(req, { params: Promise.resolve((o.params ?? {}) as Record<string, string>) });
  const text = await res.text();
  // A download (text/csv) has no JSON to read: its text is the answer.
  const isJson = !res.headers.get("content-type") || res.headers.get("content-type")?.includes("json");
  return {
    status: res.status,
    json: text && isJson ? JSON.parse(text) : undefined,
    text,
    headers: res.headers,
  };
}

/** The HTTP methods a route handler may export that change state. */
export const STATE_CHANGING_METHODS = ["POST", "PUT", "PATCH", "DELETE"] as const;

export interface ApiRouteFile {
  /** The URL path as Next serves it, with its dynamic segments as written: /api/drafts/[id]/release. */
  path: string;
  /** The file, relative to the repository root. */
  file: string;
  load: () => Promise<Record<string, unknown>>;
}

/** Every route handler file under app/api, found on disk: a route added later is in the list too. */
export function listApiRoutes(): ApiRouteFile[] {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
  const out: ApiRouteFile[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (/^route\.(ts|tsx|js)$/.test(e.name)) {
        const rel = path.relative(root, full);
        out.push({
          path: `/${path.relative(path.join(root, "app"), dir).split(path.sep).join("/")}`,
          file: rel,
          load: () => import(full),
        });
      }
    }
  };
  walk(path.join(root, "app/api"));
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

export const TEST_PASSWORD = "correct horse battery staple";

export interface TestDashboardDb {
  db: DashboardDb;
  /** Unsets the database, closes it and removes its folder. */
  close(): Promise<void>;
}

/** The session secret and public address the route handlers read, as the dashboard's environment sets them. */
function setSessionEnvironment(): void {
  process.env.NEXTAUTH_SECRET = "test-nextauth-secret-0123456789abcdef";
  process.env.NEXTAUTH_URL = "http://127.0.0.1:3999";
}

/** A fresh dashboard database in a temporary folder, set as the one the route handlers use. */
export async function openTestDashboardDb(name: string): Promise<TestDashboardDb> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  await copyMigratedPglite({ migrations: config().migrationsDir }, path.join(dir, "db"));
  const db = await openDashboardDb({ dataDir: path.join(dir, "db") });
  setDashboardDb(db);
  return {
    db,
    async close() {
      setDashboardDb(undefined);
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh dashboard database on the PostgreSQL server at TEST_DATABASE_URL (dropped at close), set
 * as the one the route handlers use, with the session secret they read: for races that PGlite's
 * one connection would serialise.
 */
export async function openPgTestDashboardDb(): Promise<TestDashboardDb & { url: string }> {
  setSessionEnvironment();
  const d = await createTestDatabase(PG_URL as string);
  const db = await openDashboardDb({ url: d.url, poolSize: 8 });
  setDashboardDb(db);
  return {
    db,
    url: d.url,
    async close() {
      setDashboardDb(undefined);
      await db.close();
      await d.drop();
    },
  };
}

/**
 * The body the wire page posts for a domestic wire of 1,250.50 from `account` to Acme Supplies
 * Inc, with a fresh idempotency key; `over` changes or adds fields.
 */
export function wireForm(account: string, over: Record<string, unknown> = {}) {
  return {
    idempotencyKey: randomUUID(),
    originator_account_number: account,
    amount: "1,250.50",
    beneficiary_name: "Acme Supplies Inc",
    beneficiary_account_number: "987654321",
    beneficiary_address1: "1 Main Street",
    receiving_bank_routing_id: "021000021",
    receiving_bank_name: "Receiving Bank NA",
    beneficiary_bank_type: "",
    beneficiary_bank_routing_id: "",
    ...over,
  };
}

/**
 * TEST_PASSWORD's argon2id hash, made once per test process by the product's own hashPassword (its
 * salt shared by the users made with it): a hash costs a fifth of a CPU-second, and the suite
 * makes users by the hundred. Signing in still verifies against a real hash at the real cost.
 */
let testPasswordHash: Promise<string> | undefined;

/** A dashboard user of the role; the e-mail names it unless a name is given. */
export async function testUser(
  db: DashboardDb,
  role: Role,
  email: string,
  name = email,
  password = TEST_PASSWORD,
) {
  if (password !== TEST_PASSWORD) return createUser(db, { email, name, role, password });
  testPasswordHash ??= hashPassword(TEST_PASSWORD);
  return createUser(db, { email, name, role, passwordHash: await testPasswordHash });
}

/** The real client, counting what it sends: "no call was made" is then a fact a test reads. */
export class CountingBankClient extends BankClient {
  sent: string[] = [];
  override call<N extends EndpointName>(name: N, o?: CallOptions<N>) {
    this.sent.push(name);
    return super.call(name, o);
  }
}

export interface RouteWorld {
  bank: TestBank;
  db: DashboardDb;
  /** The sandbox customer whose subscription key the dashboard uses. */
  customer: SandboxCustomer;
  /** The bank client set for the route handlers; undefined when they make their own from the environment. */
  client: CountingBankClient | undefined;
  /** Unsets the client, closes the database and stops the bank. */
  close(): Promise<void>;
}

/**
 * What every route-handler test stands on: a real bank, one sandbox customer of it, a fresh
 * dashboard database, the session's secret, and the dashboard pointed at that customer
 * (BANK_API_URL and BANK_SUBSCRIPTION_KEY), through a CountingBankClient unless
 * `client: "environment"` leaves the route handlers to make their own.
 */
export async function openRouteWorld(
  name: string,
  opts: { customer: string; bankEnv?: Record<string, string>; client?: "counting" | "environment" },
): Promise<RouteWorld> {
  setSessionEnvironment();
  const bank = await startTestBank(opts.bankEnv ? { env: opts.bankEnv } : undefined);
  const dashboard = await openTestDashboardDb(name);
  const customer = await sandboxCustomer(bank, opts.customer);
  process.env.BANK_API_URL = bank.url;
  process.env.BANK_SUBSCRIPTION_KEY = customer.subscriptionKey;
  const client =
    opts.client === "environment"
      ? undefined
      : new CountingBankClient({
          bankUrl: bank.url,
          subscriptionKey: customer.subscriptionKey,
          tokens: new TokenManager({
            db: dashboard.db,
            bankUrl: bank.url,
            subscriptionKey: customer.subscriptionKey,
          }),
        });
  setBankClient(client);
  return {
    bank,
    db: dashboard.db,
    customer,
    client,
    async close() {
      setBankClient(undefined);
      await dashboard.close();
      await bank.close();
    },
  };
}

/**
 * One dashboard instance beside others on the same PostgreSQL database: its own pool and its own
 * bank client (tokens kept in that database), as a second process of a deployment holds them.
 */
export async function dashboardInstance(
  dbUrl: string,
  bankUrl: string,
  subscriptionKey: string,
): Promise<{ db: DashboardDb; client: BankClient }> {
  const db = await openDashboardDb({ url: dbUrl, poolSize: 4 });
  const client = new BankClient({
    bankUrl,
    subscriptionKey,
    tokens: new TokenManager({ db, bankUrl, subscriptionKey }),
  });
  return { db: db as DashboardDb, client };
}
