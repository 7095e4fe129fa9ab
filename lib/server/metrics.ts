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

/** One series of the request histogram: a method, route and status, and what fell in each bucket. */
interface Series {
  labels: { method: string; route: string; status: string };
  /** Counts per bucket, not cumulative; the last counts what exceeds every bound (+Inf). */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * The request histogram, kept in plain arrays and read by prom-client at scrape time. Every
 * request passes here: one map look-up and a few additions, where prom-client's own histogram
 * validates and hashes the labels and builds a closure on each observation.
 */
class RequestHistogram {
  readonly series = new Map<string, Series>();
  constructor(readonly bounds: number[]) {}

  observe(method: string, route: string, status: number, seconds: number) {
    const key = `${method} ${route} ${status}`;
    let s = this.series.get(key);
    if (!s) {
      s = {
        labels: { method, route, status: String(status) },
        counts: new Array(this.bounds.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      this.series.set(key, s);
    }
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]) i++;
    s.counts[i]++;
    s.sum += seconds;
    s.count++;
  }

  /** prom-client's form of a histogram: cumulative buckets, then +Inf, sum and count, per series. */
  values(name: string) {
    const out: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const s of this.series.values()) {
      let acc = 0;
      this.bounds.forEach((le, i) => {
        acc += s.counts[i];
        out.push({ labels: { le, ...s.labels }, value: acc, metricName: `${name}_bucket` });
      });
      out.push({ labels: { le: "+Inf", ...s.labels }, value: s.count, metricName: `${name}_bucket` });
      out.push({ labels: s.labels, value: s.sum, metricName: `${name}_sum` });
      out.push({ labels: s.labels, value: s.count, metricName: `${name}_count` });
    }
    return out;
  }
}

export function httpMetrics(registry: client.Registry, prefix: string): HttpMetrics {
  const histogram = new RequestHistogram(LATENCY_BUCKETS);
  const name = `${prefix}_http_request_duration_seconds`;
  const help = "Time from a request's arrival to its answer, by method, route pattern and status";
  // A metric as the registry reads one: it asks for its values at each scrape.
  registry.registerMetric({
    name,
    help,
    type: "histogram",
    aggregator: "sum",
    get: async () => ({ name, help, type: "histogram", aggregator: "sum", values: histogram.values(name) }),
    reset: () => histogram.series.clear(),
  } as unknown as client.Metric);
  // The request counter is the histogram's count, read at scrape time: a request pays for one
  // metric, not two.
  new client.Counter({
    name: `${prefix}_http_requests_total`,
    help: "Requests answered, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of histogram.series.values()) this.inc(s.labels, s.count);
    },
  });
  return {
    observe: (method, route, status, seconds) => histogram.observe(method, route, status, seconds),
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
