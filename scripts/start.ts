// `npm start`: builds the dashboard when its sources are newer than the build, starts the bank
// (unless BANK_API_URL names one) and the dashboard, creates the demo users on first start,
// waits until both answer and the dashboard's database is warm, then prints the URLs and the
// demo users. A program that crashes is started again (with a growing pause, at most
// RESTART_LIMIT times in RESTART_WINDOW_MS) while the other keeps running. On SIGINT/SIGTERM it
// stops the dashboard first, then the bank, so the dashboard's last requests still reach a bank.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import type { Role } from "../lib/auth/permissions.ts";
import { createUser, findUserByEmail, setUserPassword } from "../lib/auth/users.ts";
import { openDashboardDb } from "../lib/db/client.ts";
import { bankNodeArgs } from "./bank-build.ts";
import { buildIsCurrent, builtAt, markBuilt, withBuildLock } from "./dashboard-build.ts";
import { answersHealthy, instanceName } from "./health.ts";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
process.chdir(root);

const env = process.env;
const DATA_DIR = path.resolve(env.DATA_DIR || ".data");
const BANK_PORT = Number(env.BANK_PORT || 4000);
const PORT = Number(env.PORT || 3000);
const DIST_DIR = env.NEXT_DIST_DIR || ".next";
const NEXT_BIN = path.join(root, "node_modules/next/dist/bin/next");
const capitalised = (w: string) => `${w[0].toUpperCase()}${w.slice(1)}`;
const DEMO_USERS: { email: string; role: Role; name: string }[] = [
  ...(["viewer", "preparer", "approver", "admin"] as const).map((role) => ({
    email: `${role}@northwind.example`,
    role,
    name: `Demo ${capitalised(role)}`,
  })),
  // A change that weakens a control waits for a second administrator (docs/decisions.md).
  { email: "admin2@northwind.example", role: "admin", name: "Demo Second Admin" },
];

/** The programs started, by name; a restarted one replaces its predecessor here. */
const children = new Map<string, ChildProcess>();
let stopping = false;

// A crashed program is started again after a pause that doubles with each crash (1, 2, 4, 8, 16 s
// by default); more than RESTART_LIMIT crashes in RESTART_WINDOW_MS means it will not stay up, and
// npm start gives up.
const RESTART_LIMIT = Number(env.START_RESTART_LIMIT || 5);
const RESTART_WINDOW_MS = 10 * 60_000;
const RESTART_FIRST_PAUSE_MS = Number(env.START_RESTART_PAUSE_MS || 1000);
const crashes = new Map<string, number[]>();

/** Says what went wrong, stops both children and exits 1; the returned promise never settles. */
function fail(message: string): Promise<never> {
  if (!stopping) console.error(`npm start: ${message}`);
  void stopAll().then(() => process.exit(1));
  return new Promise<never>(() => {});
}

// Build -----------------------------------------------------------------------------------

async function buildIfNeeded(): Promise<void> {
  if (buildIsCurrent(root, DIST_DIR)) return;
  await withBuildLock(
    root,
    DIST_DIR,
    async () => {
      // Another start may have built while this one waited.
      if (buildIsCurrent(root, DIST_DIR)) return;
      await build(builtAt(root, DIST_DIR));
    },
    (lock) => fail(`another build holds ${lock}`),
  );
}

async function build(built: number): Promise<void> {
  const started = Date.now();
  console.log(
    built
      ? "Sources changed since the last build: building the dashboard…"
      : "Building the dashboard (first start only; later starts reuse the build)…",
  );
  // Type checking and lint belong to `npm test` and CI (`npm run typecheck`, `npm run lint`):
  // a start only needs the bundles, which is most of a minute less on a small machine.
  const child = spawn(process.execPath, [NEXT_BIN, "build"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...env, NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: "1", NEXT_START_BUILD: "1" },
  });
  for (const stream of [child.stdout, child.stderr])
    readline.createInterface({ input: stream }).on("line", (line) => {
      if (line.trim()) console.log(`[build] ${line}`);
    });
  // Next prints nothing for long stretches while it compiles: a line every 10 s says it is alive.
  const ticker = setInterval(
    () => console.log(`[build] still building… ${Math.round((Date.now() - started) / 1000)} s`),
    10_000,
  );
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearInterval(ticker);
  if (code !== 0) await fail("the dashboard build failed (see the output above)");
  markBuilt(root, DIST_DIR, started);
  console.log(`Built the dashboard in ${Math.round((Date.now() - started) / 1000)} s.`);
}

// Secrets and demo users ------------------------------------------------------------------

function ownerOnlyFile(file: string, make: () => string): string {
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  const value = make();
  fs.writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}

interface DemoUser {
  email: string;
  role: Role;
  password: string;
}

async function ensureDemoUsers(): Promise<DemoUser[]> {
  const file = path.join(DATA_DIR, "demo-users.json");
  let kept: DemoUser[] = [];
  if (fs.existsSync(file)) kept = JSON.parse(fs.readFileSync(file, "utf8")) as DemoUser[];
  // A demo user missing from the file (all of them on a first start, or one added to the list
  // since) gets a new password; the others keep theirs.
  const generated = new Set<string>();
  const users: DemoUser[] = DEMO_USERS.map(({ email, role }) => {
    const known = kept.find((u) => u.email === email && u.role === role);
    if (known) return known;
    generated.add(email);
    return { email, role, password: randomBytes(12).toString("base64url") };
  });
  if (generated.size) fs.writeFileSync(file, `${JSON.stringify(users, null, 2)}\n`, { mode: 0o600 });
  // Opened and closed before the dashboard starts: one process per embedded database.
  const db = await openDashboardDb({
    url: env.DATABASE_URL || undefined,
    dataDir: path.join(DATA_DIR, "dashboard"),
  });
  try {
    for (const u of users) {
      const existing = await findUserByEmail(db, u.email);
      const name = DEMO_USERS.find((d) => d.email === u.email)?.name ?? u.email;
      if (!existing) await createUser(db, { email: u.email, name, role: u.role, password: u.password });
      // New passwords were just generated (the file lacked them): they replace the old ones.
      else if (generated.has(u.email)) await setUserPassword(db, existing.id, u.password);
    }
  } finally {
    await db.close();
  }
  return users;
}

// Children --------------------------------------------------------------------------------

function launch(name: string, args: string[], childEnv: NodeJS.ProcessEnv): ChildProcess {
  // Its own process group, so stopping it also stops what it started (next-server).
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: childEnv,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.set(name, child);
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    const out = stream === child.stderr ? process.stderr : process.stdout;
    readline.createInterface({ input: stream }).on("line", (line) => out.write(`[${name}] ${line}\n`));
  }
  child.on("exit", (code, signal) => {
    const how = signal ?? `exit code ${code}`;
    if (stopping) console.log(`The ${name} stopped (${how}).`);
    else void restart(name, args, childEnv, how);
  });
  return child;
}

/** Starts a program that stopped unexpectedly again, after a pause that grows with each crash. */
async function restart(name: string, args: string[], childEnv: NodeJS.ProcessEnv, how: string) {
  const now = Date.now();
  const recent = (crashes.get(name) ?? []).filter((t) => now - t < RESTART_WINDOW_MS);
  recent.push(now);
  crashes.set(name, recent);
  if (recent.length > RESTART_LIMIT)
    return fail(
      `the ${name} stopped unexpectedly (${how}) ${recent.length} times in ${RESTART_WINDOW_MS / 60_000} minutes; giving up`,
    );
  const pause = RESTART_FIRST_PAUSE_MS * 2 ** (recent.length - 1);
  console.error(
    `npm start: the ${name} stopped unexpectedly (${how}); starting it again in ${pause / 1000} s (restart ${recent.length} of at most ${RESTART_LIMIT} in ${RESTART_WINDOW_MS / 60_000} minutes)`,
  );
  await sleep(pause);
  if (stopping) return;
  launch(name, args, childEnv);
  console.log(`npm start: the ${name} started again`);
}

function signalGroup(child: ChildProcess, sig: NodeJS.Signals) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, sig);
  } catch {}
}

async function stopAll(): Promise<void> {
  if (stopping) return;
  stopping = true;
  // The dashboard first: its requests in flight may still need the bank. Each finishes its
  // requests in flight and exits 0 within its shutdown timeout (10 s by default).
  for (const name of ["dashboard", "bank"]) {
    const c = children.get(name);
    if (!c) continue;
    signalGroup(c, "SIGTERM");
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && c.exitCode === null && c.signalCode === null) await sleep(100);
    signalGroup(c, "SIGKILL");
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, ok: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stopping) return new Promise<void>(() => {});
    if (await ok().catch(() => false)) return;
    await sleep(250);
  }
  await fail(`${what} did not become ready within ${Math.round(timeoutMs / 1000)} s`);
}

/** This start's own name for its dashboard: /api/health answers it, so another server on the port is not taken for it. */
const INSTANCE = instanceName();

// Main ------------------------------------------------------------------------------------

for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    void stopAll().then(() => process.exit(0));
  });
}

fs.mkdirSync(DATA_DIR, { recursive: true });
const secret = ownerOnlyFile(path.join(DATA_DIR, "dashboard-secret"), () =>
  randomBytes(32).toString("base64url"),
);
// Stored TOTP seeds are sealed under a key derived from this secret (unless DASHBOARD_SECRETS_KEY
// is set): it must be in place before the demo users are read, or every seed looks tampered with.
process.env.NEXTAUTH_SECRET = secret;

/** Starts the bank of its own unless BANK_API_URL names one; resolves once it answers. */
async function startBank(): Promise<{
  bankUrl: string;
  subscriptionKey: string;
  webhookSecret: string;
  sandboxSmtpUrl?: string;
}> {
  if (env.BANK_API_URL) {
    if (!env.BANK_SUBSCRIPTION_KEY)
      await fail("BANK_API_URL is set, so BANK_SUBSCRIPTION_KEY must be set too");
    return {
      bankUrl: env.BANK_API_URL,
      subscriptionKey: env.BANK_SUBSCRIPTION_KEY as string,
      webhookSecret: env.BANK_WEBHOOK_SECRET ?? "",
    };
  }
  const credentials = path.join(DATA_DIR, "bank-demo.json");
  fs.rmSync(credentials, { force: true });
  const { NEXTAUTH_SECRET: _dashboardOnly, ...bankEnv } = env;
  const bankArgs = await bankNodeArgs(root).catch((e: Error) =>
    fail(`the bank could not be bundled from its sources: ${e.message}`),
  );
  launch("bank", bankArgs, {
    ...bankEnv,
    BANK_DEMO: "1",
    BANK_DATA_DIR: path.join(DATA_DIR, "bank"),
    BANK_PORT: String(BANK_PORT),
    BANK_DEMO_CREDENTIALS_FILE: credentials,
    // The sandbox mail box takes SMTP too: the dashboard's alert e-mail lands beside the bank's.
    BANK_SANDBOX_SMTP_PORT: env.BANK_SANDBOX_SMTP_PORT || "0",
  });
  const url = `http://127.0.0.1:${BANK_PORT}`;
  await waitFor("the bank", () => answersHealthy(`${url}/healthz`), 240_000);
  await waitFor("the bank's demo credentials", async () => fs.existsSync(credentials), 60_000);
  const demo = JSON.parse(fs.readFileSync(credentials, "utf8")) as {
    subscriptionKey: string;
    webhookSecret?: string;
    bankUrl: string;
    sandboxSmtpUrl?: string;
  };
  return {
    bankUrl: demo.bankUrl || url,
    subscriptionKey: demo.subscriptionKey,
    webhookSecret: demo.webhookSecret ?? "",
    sandboxSmtpUrl: demo.sandboxSmtpUrl,
  };
}

// `npm start -- --build-only`: the build alone (the browser tests build once, before their files
// start side by side).
if (process.argv.includes("--build-only")) {
  await buildIfNeeded();
  process.exit(0);
}

// The build, the bank's first start (it seeds its demo data) and the demo users do not depend on
// one another: run side by side, the first start takes as long as the slowest of them.
const [, demoUsers, { bankUrl, subscriptionKey, webhookSecret, sandboxSmtpUrl }] = await Promise.all([
  buildIfNeeded(),
  ensureDemoUsers(),
  startBank(),
]);

const dashboardUrl = `http://127.0.0.1:${PORT}`;
// `next start` with the connection's address appended to X-Forwarded-For (scripts/dashboard-server.js).
launch("dashboard", ["scripts/dashboard-server.js", "-H", "127.0.0.1", "-p", String(PORT)], {
  ...env,
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
  // SIGTERM is the dashboard's own graceful stop (instrumentation.ts), not Next's.
  NEXT_MANUAL_SIG_HANDLE: "true",
  NEXT_DIST_DIR: DIST_DIR,
  BANK_API_URL: bankUrl,
  BANK_SUBSCRIPTION_KEY: subscriptionKey,
  BANK_WEBHOOK_SECRET: webhookSecret,
  DASHBOARD_DATA_DIR: path.join(DATA_DIR, "dashboard"),
  NEXTAUTH_URL: env.NEXTAUTH_URL || dashboardUrl,
  NEXTAUTH_SECRET: secret,
  START_INSTANCE: INSTANCE,
  // Alert e-mail goes out once per crossing from the dashboard itself; without an SMTP server of
  // the user's, into the bank's sandbox mail box (GET /sandbox/mail), where a person can read it.
  ...(!env.DASHBOARD_SMTP_URL && sandboxSmtpUrl ? { DASHBOARD_SMTP_URL: sandboxSmtpUrl } : {}),
});
// /api/health opens the database: the slow first PGlite open happens before anyone signs in. It
// must be this start's dashboard that answers: a server already on the port is someone else's
// (ours then exits with EADDRINUSE, and its restarts fail the start with that reason).
await waitFor("the dashboard", () => answersHealthy(`${dashboardUrl}/api/health`, INSTANCE), 180_000);

for (const u of demoUsers) console.log(`demo user: ${u.email} role=${u.role} password=${u.password}`);
console.log(`Bank: ${bankUrl}`);
console.log(`Dashboard ready: ${dashboardUrl} (started in ${Math.round(process.uptime())} s)`);
