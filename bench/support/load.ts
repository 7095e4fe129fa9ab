// A small HTTP load generator on keep-alive sockets: closed loop (fixed concurrency) and open
// loop (fixed offered rate, latency measured from the scheduled send time).
import http from "node:http";

export interface LoadResult {
  count: number;
  errors: number;
  seconds: number;
  perSecond: number;
  latencies: number[];
}

export interface RequestSpec {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export function requester(baseUrl: string, maxSockets = 64) {
  const u = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  return (spec: RequestSpec) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: u.hostname,
          port: u.port,
          method: spec.method,
          path: spec.path,
          headers: spec.headers,
          agent,
        },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (c) => {
            body += c;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      if (spec.body) req.end(spec.body);
      else req.end();
    });
}

export async function closedLoop(
  send: (spec: RequestSpec) => Promise<{ status: number; body: string }>,
  next: (i: number) => RequestSpec,
  opts: { concurrency: number; seconds: number; ok?: (r: { status: number; body: string }) => boolean },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let i = 0;
  const started = performance.now();
  const deadline = started + opts.seconds * 1000;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (performance.now() < deadline) {
        const spec = next(i++);
        const t = performance.now();
        try {
          const r = await send(spec);
          if (opts.ok ? !opts.ok(r) : r.status !== 200) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { count: latencies.length, errors, seconds, perSecond: latencies.length / seconds, latencies };
}

export async function openLoop(
  send: (spec: RequestSpec) => Promise<{ status: number; body: string }>,
  next: (i: number) => RequestSpec,
  opts: { rate: number; seconds: number; ok?: (r: { status: number; body: string }) => boolean },
): Promise<LoadResult> {
  const total = Math.round(opts.rate * opts.seconds);
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / opts.rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const spec = next(i);
    pending.push(
      send(spec)
        .then((r) => {
          if (opts.ok ? !opts.ok(r) : r.status !== 200) errors++;
        })
        .catch(() => {
          errors++;
        })
        // Latency from the scheduled time: a server that falls behind is charged for the queue.
        .finally(() => {
          latencies.push(performance.now() - due);
        }),
    );
  }
  await Promise.all(pending);
  const seconds = (performance.now() - started) / 1000;
  return { count: latencies.length, errors, seconds, perSecond: latencies.length / seconds, latencies };
}
