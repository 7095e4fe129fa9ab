// Assembles the bank: database, clock, auth, routes, background workers, HTTP server.
import { EventEmitter } from "node:events";
import net, { type AddressInfo } from "node:net";
import { BANK_HEADERS } from "../lib/bank-api/headers.ts";
import { createLogger } from "../lib/server/log.ts";
import { createCustomerDirectory } from "./auth/keys.ts";
import { createTokenService } from "./auth/tokens.ts";
import { createClock } from "./clock.ts";
import type { BankConfig } from "./config.ts";
import type { Bank } from "./context.ts";
import { openBankDb } from "./db/client.ts";
import { unauthorized } from "./http/errors.ts";
import { Router } from "./http/router.ts";
import { createHttpServer } from "./http/server.ts";
import { createTransferExecutor } from "./ledger/transfers.ts";
import { createBankMetrics } from "./metrics.ts";
import { createDestinationCheck, type HostLookup } from "./notify/destination.ts";
import { registerRoutes } from "./routes/index.ts";
import { startSandboxSmtp } from "./sandbox/smtp.ts";
import { startWorkers } from "./workers.ts";

export interface RunningBank {
  bank: Bank;
  url: string;
  port: number;
  /** The sandbox mail box's SMTP address (`smtp://host:port`) when BANK_SANDBOX_SMTP_PORT is set. */
  sandboxSmtpUrl?: string;
  /** Stops at once: open connections are cut, background work ends, the database closes. */
  close(): Promise<void>;
  /**
   * Stops gracefully (SIGTERM): readiness answers 503 at once, the listener closes after the drain
   * delay, requests in flight finish (up to the shutdown timeout), then as `close`, which gives the
   * outbox's leases back so another instance delivers them at once.
   */
  shutdown(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface StartBankOptions {
  quiet?: boolean;
  /** The name service webhook hosts are resolved through; the machine's own unless told. */
  lookupHost?: HostLookup;
}

export async function startBank(config: BankConfig, opts: StartBankOptions = {}): Promise<RunningBank> {
  const log = createLogger("bank", { quiet: opts.quiet ?? false });
  const db = await openBankDb({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.poolSize,
  });
  const closers: (() => Promise<void> | void)[] = [];
  try {
    const clock = await createClock(db, config.timeZone, { shared: db.kind === "pg" });
    // A new sandbox bank may start on another day (before the demo seeds its history from it).
    if (config.sandbox && config.sandboxClockStartSeconds > 0 && clock.now().getTime() - Date.now() < 1000)
      await clock.advance(config.sandboxClockStartSeconds);
    if (db.kind === "pg") {
      // Background work (settlement, deliveries) runs between requests: it reads the clock too.
      const refresh = setInterval(() => void clock.sync().catch(() => {}), 1000);
      refresh.unref();
      closers.push(() => clearInterval(refresh));
    }
    const customers = createCustomerDirectory(db);
    const tokens = await createTokenService(db, clock, {
      ttlSeconds: config.tokenTtlSeconds,
      intervalSeconds: config.tokenIntervalSeconds,
      secret: config.jwtSecret,
    });
    const events = new EventEmitter();
    events.setMaxListeners(100);
    const metrics = createBankMetrics(config.metrics, db, clock);
    const bank: Bank = {
      config,
      db,
      // On PostgreSQL half the pool at most, so reads always find a connection while transfers
      // queue, and one even in a pool of one; PGlite has one connection.
      transfers: createTransferExecutor(db, {
        slots: db.kind === "pg" ? Math.max(1, Math.min(4, Math.floor(config.poolSize / 2))) : 1,
        gather: db.kind === "pglite",
        onBatch: metrics.batch,
        onBatchError: (err, size) =>
          log.warn("transfer batch failed as a whole; its transfers go one by one", { size, err }),
      }),
      clock,
      customers,
      tokens,
      log,
      metrics,
      webhookDestinations: createDestinationCheck({
        sandbox: config.sandbox,
        allow: config.webhookAllow,
        lookup: opts.lookupHost,
      }),
      lifecycle: { draining: false },
      events,
      onClose: (fn) => closers.push(fn),
    };

    const router = new Router({
      async customer(ctx) {
        const key = ctx.header(BANK_HEADERS.subscriptionKey);
        if (!key)
          throw unauthorized(`Missing subscription key: send the ${BANK_HEADERS.subscriptionKey} header`);
        const c = await customers.byKey(key);
        if (!c) throw unauthorized("Invalid subscription key");
        return c;
      },
      token: (ctx, customer) => tokens.verify(ctx.header(BANK_HEADERS.authorization), customer),
    });
    registerRoutes(router, bank);
    await startWorkers(bank);

    const server = createHttpServer(router, log, {
      logRequests: config.logRequests,
      metrics: metrics.http,
      requestTimeoutMs: config.requestTimeoutMs,
      maxConnectionsPerAddress: config.maxConnectionsPerAddress,
      trustedProxies: config.trustedProxies,
      beforeRequest: () => clock.sync(),
      now: () => clock.now(),
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.port, config.host, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    const url = `http://${config.host}:${port}`;
    const sandboxSmtpUrl =
      config.sandbox && config.sandboxSmtpPort !== undefined
        ? `smtp://${config.host}:${await startSandboxSmtp(bank, config.sandboxSmtpPort)}`
        : undefined;
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      bank.lifecycle.draining = true;
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      for (const fn of closers.reverse()) await fn();
      await db.close();
    };
    return {
      bank,
      url,
      port,
      sandboxSmtpUrl,
      close,
      async shutdown() {
        if (bank.lifecycle.draining) return close();
        bank.lifecycle.draining = true;
        log.info("stopping: readiness answers 503; requests in flight finish", {
          inFlight: server.inFlight(),
          drainDelayMs: config.drainDelayMs,
        });
        server.closeAfterEachAnswer();
        await sleep(config.drainDelayMs);
        // net.Server's close stops listening without dropping the idle kept-alive connections at
        // once (http.Server's does), where a client may be sending its next request that instant:
        // idle ones close after a second from here on (those idle already too), busy ones after their answer.
        net.Server.prototype.close.call(server);
        server.keepAliveTimeout = 1000;
        server.idleSoon(1000);
        const deadline = Date.now() + config.shutdownTimeoutMs;
        while (server.inFlight() > 0 && Date.now() < deadline) await sleep(20);
        const idleDeadline = Date.now() + 3_000;
        while ((await openConnections(server)) > 0 && Date.now() < idleDeadline) await sleep(50);
        if (server.inFlight() > 0)
          log.warn("stopping with requests unanswered", { inFlight: server.inFlight() });
        await close();
        log.info("stopped");
      },
    };
  } catch (e) {
    for (const fn of closers.reverse()) await fn();
    await db.close();
    throw e;
  }
}

const openConnections = (server: net.Server) =>
  new Promise<number>((r) => server.getConnections((e, n) => r(e ? 0 : n)));
