// Prometheus metrics through prom-client, the parts both programs share: the request counter and
// latency histogram (labelled by route pattern, never by a raw path that holds an id), and the
// answer to a scrape.
import { timingSafeEqual } from "node:crypto";
import client from "prom-client";

export { client };

export interface HttpMetrics {
  /** One answered request: its method, route pattern, status and time taken. */
  observe(method: string, route: string, status: number, seconds: number): void;
}

/** Buckets from 2.5 ms to 10 s: a SEN transfer takes milliseconds, a slow bank call seconds. */
const LATENCY_BUCKETS = [0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function httpMetrics(registry: client.Registry, prefix: string): HttpMetrics {
  const duration = new client.Histogram({
    name: `${prefix}_http_request_duration_seconds`,
    help: "Time from a request's arrival to its answer, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  // The request counter is the histogram's count, read at scrape time: a request pays for one
  // metric, not two.
  new client.Counter({
    name: `${prefix}_http_requests_total`,
    help: "Requests answered, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const counts = (await duration.get()).values.filter(
        (v) => v.metricName === `${prefix}_http_request_duration_seconds_count`,
      );
      for (const v of counts) this.inc(v.labels as Record<"method" | "route" | "status", string>, v.value);
    },
  });
  return {
    observe(method, route, status, seconds) {
      duration.observe({ method, route, status: String(status) }, seconds);
    },
  };
}

/** Methods a route can have; anything else is counted as OTHER, so a client cannot make up label values. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
export const methodLabel = (m: string) => (METHODS.has(m) ? m : "OTHER");

/** The text a Prometheus scrape reads, and its content type. */
export async function scrape(registry: client.Registry): Promise<{ contentType: string; text: string }> {
  return { contentType: registry.contentType, text: await registry.metrics() };
}

/** The bearer token of an Authorization header, compared in constant time with the expected one. */
export function bearerMatches(header: string | null | undefined, expected: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!m) return false;
  const a = Buffer.from(m[1]);
  const b = Buffer.from(expected);
  // timingSafeEqual needs equal lengths; a length mismatch is a refusal all the same.
  return a.length === b.length && timingSafeEqual(a, b);
}
