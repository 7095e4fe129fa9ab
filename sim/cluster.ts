// The product as it runs in production, on this machine: N banks (`bank/main.ts`) and N dashboards
// (`next start` on a build) over one bank database and one dashboard database (PostgreSQL), or one
// of each on PGlite. Every process is its own process group, so `kill -9` takes it down at once,
// as a crash would; a restart reuses its port. In front of the dashboards' webhook receiver sits
// the simulator's load balancer, which can be made to refuse, fail or stall; beside them, a second
// receiver (the sink) stands for a customer's own webhook endpoint. Between each dashboard and its
// bank sits a faulty proxy (`BankPath`), which can lose an answer after the bank acted, delay it,
// or cut it mid-body.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { bankNodeArgs } from "../scripts/bank-build.ts";
import { buildIsCurrent, markBuilt, withBuildLock } from "../scripts/dashboard-build.ts";
import { answersHealthy, instanceName } from "../scripts/health.ts";
import { groupAlive } from "../tests/helpers/dashboard.ts";
import { freePort } from "../tests/helpers/ports.ts";
import { Prng } from "./prng.ts";
import type { BankPathMode, ReceiverMode } from "./schedule.ts";

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
export const SANDBOX_KEY = "sbx_simulator_key_0123456789";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until `url` answers 200 (and, for a dashboard started with START_INSTANCE, names that
 * instance: another server on the port is not taken for it, as `npm start` checks).
 */
async function waitHealthy(url: string, proc: Proc, timeoutMs: number, instance?: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null)
      throw new Error(`${proc.name} exited while starting; see ${proc.logFile}`);
    try {
      if (await answersHealthy(url, instance, 5000)) return;
    } catch {}
    await sleep(150);
  }
  throw new Error(`${proc.name} did not answer ${url} within ${timeoutMs} ms; see ${proc.logFile}`);
}

// Build ------------------------------------------------------------------------------------

/**
 * Builds the dashboard when its sources are newer than its build folder (NEXT_DIST_DIR, else
 * `.next`; `npm run sim` uses `.next-sim`), under the lock `npm start` takes. The dashboards start
 * from the same folder: they inherit NEXT_DIST_DIR.
 */
export async function ensureBuild(log: (s: string) => void): Promise<void> {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (buildIsCurrent(ROOT, distDir)) return;
  await withBuildLock(
    ROOT,
    distDir,
    async () => {
      if (buildIsCurrent(ROOT, distDir)) return;
      log("building the dashboard (next build)…");
      const started = Date.now();
      const child = spawn(process.execPath, [NEXT_BIN, "build"], {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_START_BUILD: "1", NODE_ENV: "production" },
      });
      let out = "";
      child.stdout?.on("data", (b) => (out += b));
      child.stderr?.on("data", (b) => (out += b));
      const code = await new Promise<number | null>((r) => child.on("exit", r));
      if (code !== 0) throw new Error(`next build failed:\n${out.slice(-4000)}`);
      markBuilt(ROOT, distDir, started);
    },
    async (lock) => {
      throw new Error(`another build holds ${lock}`);
    },
  );
}

// Processes --------------------------------------------------------------------------------

interface Proc {
  name: string;
  child: ChildProcess;
  logFile: string;
}

function launch(name: string, args: string[], env: NodeJS.ProcessEnv, logDir: string): Proc {
  const logFile = path.join(logDir, `${name}.log`);
  const out = fs.openSync(logFile, "a");
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ["ignore", out, out],
  });
  fs.closeSync(out);
  child.unref();
  return { name, child, logFile };
}

function killGroup(p: Proc | undefined, sig: NodeJS.Signals = "SIGKILL") {
  if (!p?.child.pid) return;
  try {
    process.kill(-p.child.pid, sig);
  } catch {}
}

async function waitGone(p: Proc): Promise<void> {
  const pid = p.child.pid;
  if (!pid) return;
  for (let i = 0; i < 100 && groupAlive(pid); i++) await sleep(50);
}

export type Backend = "pg" | "pglite";

export interface ClusterOptions {
  backend: Backend;
  instances: number;
  adminUrl?: string;
  /** Seeds the bank paths' draws of which answers meet a fault. */
  seed?: number;
  /**
   * Seconds between the scheduled-payment and sweep runs of each dashboard (its ticker); unset,
   * the product's default. A run with schedules and sweeps runs them every second.
   */
  scheduleRunSeconds?: number;
  log: (s: string) => void;
}

export interface BankKeys {
  subscriptionKey: string;
  webhookSecret: string;
  customerId: number;
}

/** A receiver the simulator can make refuse connections, answer 500 or stall. */
export class FaultyServer {
  mode: ReceiverMode = "up";
  server!: http.Server;
  port = 0;
  constructor(
    private readonly handle: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void,
  ) {}

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const mode = this.mode;
        if (mode === "down") {
          req.socket.destroy();
          return;
        }
        if (mode === "error") {
          res.writeHead(500).end("simulated failure");
          return;
        }
        const go = () => this.handle(req, Buffer.concat(chunks), res);
        if (mode === "slow") setTimeout(go, 1500);
        else go();
      });
    });
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", () => r()));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

/** How often a request meets the fault while its mode is on: most writes, some reads. */
const WRITE_FAULT_CHANCE = 0.5;
const READ_FAULT_CHANCE = 0.15;
const SLOW_ANSWER_MS = 1500;
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length"]);

/**
 * The wire between one dashboard and its bank. Every request reaches the bank whole; in a fault
 * mode, some answers do not come back whole: `lost` drops the connection once the bank has
 * answered (it acted; the dashboard cannot know), `slow` holds the answer 1.5 s, `cut` sends the
 * status, the headers and half the body, then drops the connection. `held` holds every answer to
 * a write 1.5 s, for a scene that needs two requests to overlap (reads go through at once).
 */
export class BankPath {
  mode: BankPathMode = "up";
  /** Answers lost, delayed or cut so far. */
  faults = 0;
  private server!: http.Server;
  port = 0;
  private readonly agent = new http.Agent({ keepAlive: true });

  constructor(
    private readonly target: () => string,
    private readonly rng: Prng,
  ) {}

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => this.forward(req, Buffer.concat(chunks), res));
    });
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", () => r()));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private forward(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): void {
    const target = new URL(this.target());
    const headers = { ...req.headers, host: target.host };
    delete headers.connection;
    const up = http.request(
      {
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers,
        agent: this.agent,
      },
      (answer) => {
        const parts: Buffer[] = [];
        answer.on("data", (c: Buffer) => parts.push(c));
        answer.on("error", () => req.socket.destroy());
        answer.on("end", () => {
          const text = Buffer.concat(parts);
          const out: Record<string, string | string[]> = {};
          for (const [k, v] of Object.entries(answer.headers))
            if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
          out["content-length"] = String(text.length);
          const send = () => res.writeHead(answer.statusCode ?? 502, out).end(text);
          if (this.mode === "held" && req.method !== "GET") {
            this.faults++;
            setTimeout(send, SLOW_ANSWER_MS);
            return;
          }
          const chance = req.method === "GET" ? READ_FAULT_CHANCE : WRITE_FAULT_CHANCE;
          if (this.mode === "up" || !this.rng.chance(chance)) return send();
          this.faults++;
          if (this.mode === "lost") req.socket.destroy();
          else if (this.mode === "slow") setTimeout(send, SLOW_ANSWER_MS);
          else {
            res.writeHead(answer.statusCode ?? 502, out);
            res.write(text.subarray(0, Math.floor(text.length / 2)));
            // The first half reaches the dashboard, then the connection goes.
            setTimeout(() => req.socket.destroy(), 20);
          }
        });
      },
    );
    // The bank is down (killed, restarting): the dashboard's connection goes too.
    up.on("error", () => req.socket.destroy());
    up.end(body);
  }

  close(): Promise<void> {
    this.agent.destroy();
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

export interface SinkDelivery {
  hook: string;
  webhookId: string;
  body: string;
  at: number;
}

export class Cluster {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "treasury-sim-"));
  bankDbUrl?: string;
  dashDbUrl?: string;
  bankPorts: number[] = [];
  dashPorts: number[] = [];
  banks: (Proc | undefined)[] = [];
  dashboards: (Proc | undefined)[] = [];
  keys!: BankKeys;
  readonly secret = randomBytes(32).toString("base64url");
  /** The load balancer in front of the dashboards' webhook receiver. */
  receiver!: FaultyServer;
  /** A customer's own webhook endpoint: every delivery it accepted. */
  sink!: FaultyServer;
  /** The wire from dashboard i to bank i, which can lose, delay or cut answers. */
  bankPaths: BankPath[] = [];
  readonly sinkDeliveries: SinkDelivery[] = [];
  private rr = 0;
  /** PGlite: the two databases, opened by the simulator once every process has stopped. */
  private lite?: { bank: PGlite; dash: PGlite };
  kills = 0;
  private dbNames: string[] = [];
  /** How `node` starts a bank in this run (scripts/bank-build.ts), fixed at the cluster's start. */
  private bankArgs: string[] = [];

  constructor(readonly o: ClusterOptions) {}

  bankUrl(i: number): string {
    return `http://127.0.0.1:${this.bankPorts[i % this.bankPorts.length]}`;
  }

  dashUrl(i: number): string {
    return `http://127.0.0.1:${this.dashPorts[i % this.dashPorts.length]}`;
  }

  get n(): number {
    return this.o.instances;
  }

  async createDatabases(): Promise<void> {
    if (this.o.backend !== "pg") return;
    const admin = new pg.Client({ connectionString: this.o.adminUrl });
    await admin.connect();
    const tag = `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
    for (const which of ["bank", "dash"]) {
      const name = `sim_${which}_${tag}`;
      await admin.query(`CREATE DATABASE ${name}`);
      this.dbNames.push(name);
      const u = new URL(this.o.adminUrl as string);
      u.pathname = `/${name}`;
      if (which === "bank") this.bankDbUrl = u.toString();
      else this.dashDbUrl = u.toString();
    }
    await admin.end();
  }

  async start(): Promise<void> {
    // Bundled once, as the dashboards' build is made once: a bank restarted later in the run runs
    // what its peers run, even if a source changed meanwhile.
    this.bankArgs = await bankNodeArgs(ROOT);
    await this.createDatabases();
    for (let i = 0; i < this.n; i++) {
      this.bankPorts.push(await freePort());
      this.dashPorts.push(await freePort());
    }
    this.receiver = new FaultyServer((req, body, res) => void this.forward(req, body, res));
    await this.receiver.start();
    this.sink = new FaultyServer((req, body, res) => {
      this.sinkDeliveries.push({
        hook: req.url ?? "",
        webhookId: String(req.headers["webhook-id"] ?? ""),
        body: body.toString(),
        at: Date.now(),
      });
      res.writeHead(204).end();
    });
    await this.sink.start();
    for (let i = 0; i < this.n; i++) {
      // Its own stream of draws: which answers meet a fault does not move the schedule's.
      const path = new BankPath(() => this.bankUrl(i), new Prng((this.o.seed ?? 1) * 31 + i));
      await path.start();
      this.bankPaths.push(path);
    }
    // The first bank migrates the database; the others open it migrated.
    for (let i = 0; i < this.n; i++) await this.startBank(i);
  }

  private bankEnv(i: number): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      BANK_PORT: String(this.bankPorts[i]),
      BANK_SANDBOX_KEY: SANDBOX_KEY,
      // The integrating client asks for a token whenever its last one expired (the clock moves).
      BANK_TOKEN_INTERVAL_SECONDS: "1",
      BANK_WEBHOOK_RETRY_BASE_MS: "200",
      BANK_SETTLE_AFTER_SECONDS: "3",
      BANK_DB_POOL: "6",
      BANK_DEMO: "",
    };
    if (this.o.backend === "pg") env.BANK_DATABASE_URL = this.bankDbUrl;
    else env.BANK_DATA_DIR = path.join(this.dir, "bank-data");
    return env;
  }

  async startBank(i: number): Promise<void> {
    const p = launch(`bank${i}`, this.bankArgs, this.bankEnv(i), this.dir);
    this.banks[i] = p;
    await waitHealthy(`${this.bankUrl(i)}/healthz`, p, 120_000);
  }

  private dashEnv(i: number): NodeJS.ProcessEnv {
    const url = this.dashUrl(i);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      // Through the faulty wire (BankPath), not straight to the bank.
      BANK_API_URL: this.bankPaths[i].url(),
      // A release whose instance died is taken over after seconds, not the 120 s of production,
      // so a run sees the takeover (and whether it sends the wire a second time).
      DRAFT_CLAIM_STUCK_SECONDS: "5",
      BANK_SUBSCRIPTION_KEY: this.keys.subscriptionKey,
      BANK_WEBHOOK_SECRET: this.keys.webhookSecret,
      NEXTAUTH_URL: url,
      NEXTAUTH_SECRET: this.secret,
      // Instances behind one load-balanced address: the bank posts to the simulator's balancer.
      DASHBOARD_WEBHOOK_BASE_URL: this.receiver.url(),
      SIGN_IN_RATE_LIMIT_PER_MINUTE: "100000",
      LIVE_STREAMS_PER_USER: "1000",
    };
    if (this.o.scheduleRunSeconds) env.SCHEDULE_RUN_SECONDS = String(this.o.scheduleRunSeconds);
    if (this.o.backend === "pg") env.DATABASE_URL = this.dashDbUrl;
    else env.DASHBOARD_DATA_DIR = path.join(this.dir, "dashboard-data");
    delete env.BANK_DATABASE_URL;
    return env;
  }

  /** Starts the dashboards side by side, as a deployment starts its instances. */
  async startDashboards(): Promise<void> {
    await Promise.all(Array.from({ length: this.n }, (_, i) => this.startDashboard(i)));
  }

  async startDashboard(i: number): Promise<void> {
    // Each start its own name, a restart on the same port included (see waitHealthy).
    const instance = instanceName();
    const p = launch(
      `dashboard${i}`,
      [NEXT_BIN, "start", "-H", "127.0.0.1", "-p", String(this.dashPorts[i])],
      { ...this.dashEnv(i), START_INSTANCE: instance },
      this.dir,
    );
    this.dashboards[i] = p;
    await waitHealthy(`${this.dashUrl(i)}/api/health`, p, 120_000, instance);
  }

  /** kill -9 of one process, then its restart on the same port. */
  private restarts: Promise<void> = Promise.resolve();

  /** One crash at a time: a second kill waits until the first process is back. */
  killAndRestart(target: "bank" | "dashboard", i: number): Promise<void> {
    const run = this.restarts.catch(() => {}).then(() => this.crash(target, i));
    this.restarts = run;
    return run;
  }

  private async crash(target: "bank" | "dashboard", i: number): Promise<void> {
    const list = target === "bank" ? this.banks : this.dashboards;
    const p = list[i];
    killGroup(p);
    if (p) await waitGone(p);
    list[i] = undefined;
    this.kills++;
    if (target === "bank") await this.startBank(i);
    else await this.startDashboard(i);
  }

  /** Round-robin over the dashboards that are up; a 502 when none answers (the bank retries). */
  private async forward(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) {
    for (let k = 0; k < this.n; k++) {
      const i = this.rr++ % this.n;
      if (!this.dashboards[i]) continue;
      try {
        const headers: Record<string, string> = {};
        for (const h of ["content-type", "webhook-id", "webhook-timestamp", "webhook-signature"]) {
          const v = req.headers[h];
          if (typeof v === "string") headers[h] = v;
        }
        const r = await fetch(`${this.dashUrl(i)}${req.url}`, {
          method: req.method,
          headers,
          body: new Uint8Array(body),
          signal: AbortSignal.timeout(20_000),
        });
        const text = await r.text();
        res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "text/plain" }).end(text);
        return;
      } catch {}
    }
    res.writeHead(502).end("no dashboard answered");
  }

  /** Whether the checker may read the databases now: PostgreSQL always, PGlite once stopped. */
  get readable(): boolean {
    return !!this.bankDbUrl || !!this.lite;
  }

  /** PGlite allows one process per directory: the programs stop, then the simulator reads. */
  async stopAndOpenPglite(): Promise<void> {
    if (this.o.backend !== "pglite") return;
    for (const p of [...this.dashboards, ...this.banks]) killGroup(p, "SIGTERM");
    for (const p of [...this.dashboards, ...this.banks]) if (p) await waitGone(p);
    for (const p of [...this.dashboards, ...this.banks]) killGroup(p);
    this.banks = [];
    this.dashboards = [];
    this.lite = {
      bank: await PGlite.create(path.join(this.dir, "bank-data")),
      dash: await PGlite.create(path.join(this.dir, "dashboard-data")),
    };
  }

  async bankQuery<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    if (this.lite) return (await this.lite.bank.query<T>(sql, params)).rows;
    if (!this.bankDbUrl) throw new Error("the bank database is readable only on PostgreSQL");
    const c = new pg.Client({ connectionString: this.bankDbUrl });
    await c.connect();
    try {
      return (await c.query(sql, params)).rows as T[];
    } finally {
      await c.end();
    }
  }

  /** Several reads of the bank's database in one snapshot (REPEATABLE READ): no change falls between them. */
  async bankSnapshot<T>(
    fn: (q: <R = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<R[]>) => Promise<T>,
  ): Promise<T> {
    if (this.lite) return fn((sql, params) => this.bankQuery(sql, params));
    if (!this.bankDbUrl) throw new Error("the bank database is readable only on PostgreSQL");
    const c = new pg.Client({ connectionString: this.bankDbUrl });
    await c.connect();
    try {
      await c.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      const out = await fn(async (sql, params = []) => (await c.query(sql, params)).rows);
      await c.query("COMMIT");
      return out;
    } finally {
      await c.end();
    }
  }

  async dashQuery<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    if (this.lite) return (await this.lite.dash.query<T>(sql, params)).rows;
    if (!this.dashDbUrl) throw new Error("the dashboard database is readable only on PostgreSQL");
    const c = new pg.Client({ connectionString: this.dashDbUrl });
    await c.connect();
    try {
      return (await c.query(sql, params)).rows as T[];
    } finally {
      await c.end();
    }
  }

  async stop(opts: { keep?: boolean } = {}): Promise<void> {
    for (const p of [...this.dashboards, ...this.banks]) killGroup(p, "SIGTERM");
    await sleep(300);
    for (const p of [...this.dashboards, ...this.banks]) killGroup(p);
    for (const p of [...this.dashboards, ...this.banks]) if (p) await waitGone(p);
    await this.lite?.bank.close().catch(() => {});
    await this.lite?.dash.close().catch(() => {});
    await this.receiver?.close().catch(() => {});
    await this.sink?.close().catch(() => {});
    for (const p of this.bankPaths) await p.close().catch(() => {});
    if (this.dbNames.length && !opts.keep) {
      const admin = new pg.Client({ connectionString: this.o.adminUrl });
      await admin.connect();
      for (const n of this.dbNames)
        await admin.query(`DROP DATABASE IF EXISTS ${n} WITH (FORCE)`).catch(() => {});
      await admin.end();
    }
    if (!opts.keep) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
