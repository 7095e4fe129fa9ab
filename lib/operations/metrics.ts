// The dashboard's Prometheus metrics (GET /metrics, behind METRICS_TOKEN): requests by route
// pattern and status with their latency, access-token renewals, sign-in failures and lockouts,
// and what waits for a person (payment drafts for their second person, incoming wires for their
// second approver or the bank's confirmation), read from the dashboard's database at scrape time.
import { getDashboardDb } from "../db/client.ts";
import { client, type HttpMetrics, httpMetrics } from "../server/metrics.ts";

export interface DashboardMetrics {
  registry: client.Registry;
  http: HttpMetrics;
  /** An access-token request to the bank: renewed, refused as too soon, or failed. */
  tokenRenewal(outcome: "renewed" | "too_soon" | "failed"): void;
  /** A refused sign-in, by reason (invalid, locked, disabled, totp_invalid, rate_limited). */
  signInFailed(reason: string): void;
  /** A user locked out by failed sign-ins. */
  lockout(): void;
}

type Waiting = { what: string; n: number; oldest: Date | null };

// Drafts waiting for their second person; incoming wires one approver agreed to (waiting for the
// second) and decisions sent without the bank's confirmation yet.
const WAITING = `
  SELECT 'drafts' AS what, count(*) AS n, min(prepared_at) AS oldest FROM payment_drafts WHERE status = 'pending'
  UNION ALL
  SELECT 'second_approval', count(DISTINCT v.payment_id), min(v.at) FROM incoming_wire_votes v
  WHERE NOT EXISTS (SELECT 1 FROM incoming_wire_decisions d
    WHERE d.payment_id = v.payment_id AND d.state NOT IN ('rejected', 'failed'))
  UNION ALL
  SELECT 'unconfirmed', count(*), min(created_at) FROM incoming_wire_decisions
  WHERE state IN ('sending', 'queued', 'unconfirmed')`;

function create(): DashboardMetrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: "dashboard_" });
  const http = httpMetrics(registry, "dashboard");
  const renewals = new client.Counter({
    name: "dashboard_bank_token_renewals_total",
    help: "Access-token requests to the bank, by outcome (renewed, too_soon, failed)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const signIns = new client.Counter({
    name: "dashboard_sign_in_failures_total",
    help: "Refused sign-ins, by reason",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  const lockouts = new client.Counter({
    name: "dashboard_lockouts_total",
    help: "Users locked out by repeated failed sign-ins",
    registers: [registry],
  });
  // The four gauges below come from one query per scrape.
  let reading: Promise<Map<string, Waiting>> | null = null;
  const read = () => {
    reading ??= getDashboardDb()
      .then((db) => db.query<Waiting>(WAITING))
      .then((rows) => new Map(rows.map((r) => [r.what, r])))
      .finally(() => {
        reading = null;
      });
    return reading;
  };
  const age = (w: Waiting | undefined) =>
    w?.oldest ? Math.max(0, (Date.now() - new Date(w.oldest).getTime()) / 1000) : 0;
  new client.Gauge({
    name: "dashboard_drafts_waiting",
    help: "Payment drafts waiting for a second person to release or reject them",
    registers: [registry],
    async collect() {
      this.set((await read()).get("drafts")?.n ?? 0);
    },
  });
  new client.Gauge({
    name: "dashboard_drafts_oldest_waiting_age_seconds",
    help: "Age of the oldest payment draft waiting for a second person (0 when none waits)",
    registers: [registry],
    async collect() {
      this.set(age((await read()).get("drafts")));
    },
  });
  const STAGES = ["second_approval", "unconfirmed"];
  new client.Gauge({
    name: "dashboard_incoming_wires_waiting",
    help: "Incoming wires waiting: for a second approver, or for the bank to confirm a decision sent",
    labelNames: ["stage"] as const,
    registers: [registry],
    async collect() {
      const m = await read();
      for (const stage of STAGES) this.set({ stage }, m.get(stage)?.n ?? 0);
    },
  });
  new client.Gauge({
    name: "dashboard_incoming_wires_oldest_waiting_age_seconds",
    help: "Age of the oldest incoming wire waiting, by stage (0 when none waits)",
    labelNames: ["stage"] as const,
    registers: [registry],
    async collect() {
      const m = await read();
      for (const stage of STAGES) this.set({ stage }, age(m.get(stage)));
    },
  });
  return {
    registry,
    http,
    tokenRenewal: (outcome) => renewals.inc({ outcome }),
    signInFailed: (reason) => signIns.inc({ reason }),
    lockout: () => lockouts.inc(),
  };
}

// One registry per process (kept on globalThis): route bundles may load this module more than once,
// and every copy must count into the registry the scrape reads.
const KEY = Symbol.for("treasury.dashboardMetrics");
const g = globalThis as { [KEY]?: DashboardMetrics };

export function dashboardMetrics(): DashboardMetrics {
  g[KEY] ??= create();
  return g[KEY];
}
