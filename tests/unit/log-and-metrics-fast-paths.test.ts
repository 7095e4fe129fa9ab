// The request line and the request histogram are on every request's path, so both are built by
// hand: these tests hold them to exactly what pino and prom-client would have produced.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import client from "prom-client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bufferedLines, createLogger, createLogRoot, isoTime } from "../../lib/server/log.ts";
import { httpMetrics } from "../../lib/server/metrics.ts";
import { inScope, scopeFor } from "../../lib/server/trace.ts";

afterEach(() => {
  vi.useRealTimers();
});

function pinoLines() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, root: createLogRoot(stream as never) };
}

describe("the request line", () => {
  it("is the line pino writes, field for field and in the same order", () => {
    const viaPino = pinoLines();
    const pinoLog = createLogger("bank", { quiet: false, root: viaPino.root });
    const direct: string[] = [];
    const directLog = createLogger("bank", {
      quiet: false,
      root: pinoLines().root,
      lines: { write: (l) => direct.push(l) },
    });
    const scope = scopeFor("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "req-1");
    const path = '/v2/accounts/"quoted"\\é/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlc2ln';
    inScope(scope, () => {
      pinoLog.info("request", { method: "GET", path, status: 404, ms: 12 });
      directLog.request("GET", path, 404, 12);
    });
    directLog.request("POST", "/livez", 200, 0);
    expect(direct).toHaveLength(2);
    expect(direct.every((l) => l.endsWith("}\n"))).toBe(true);
    const a = JSON.parse(viaPino.lines[0]);
    const b = JSON.parse(direct[0]);
    // Same fields in the same order; the times are a moment apart.
    expect(Object.keys(b)).toEqual(Object.keys(a));
    expect({ ...b, time: "" }).toEqual({ ...a, time: "" });
    expect(b).toMatchObject({ requestId: "req-1", traceId: "0af7651916cd43dd8448eb211c80319c", status: 404 });
    expect(b.path).toContain("[redacted-jwt]");
    // Outside a request: no ids.
    expect(JSON.parse(direct[1])).not.toHaveProperty("requestId");
  });

  it("is not written when the logger is quiet", () => {
    const direct: string[] = [];
    const log = createLogger("bank", {
      quiet: true,
      root: pinoLines().root,
      lines: { write: (l) => direct.push(l) },
    });
    log.request("GET", "/livez", 200, 1);
    expect(direct).toEqual([]);
  });

  it("gives the time as toISOString does, to the millisecond", () => {
    vi.useFakeTimers();
    for (const t of [
      Date.UTC(2026, 10, 27, 0, 40, 49, 0),
      Date.UTC(2026, 10, 27, 0, 40, 49, 7),
      Date.UTC(2026, 10, 27, 0, 40, 49, 42),
      Date.UTC(2026, 10, 27, 0, 40, 49, 999),
      Date.UTC(2026, 10, 27, 0, 40, 50, 1),
      Date.UTC(2027, 0, 1, 0, 0, 0, 100),
    ]) {
      vi.setSystemTime(t);
      expect(isoTime()).toBe(`,"time":"${new Date(t).toISOString()}"`);
    }
  });
});

describe("gathered lines", () => {
  it("are written together once they reach the size, or after the wait, and at a flush", () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const lines = bufferedLines({ write: (c) => writes.push(c) }, { flushMs: 200, flushBytes: 10 });
    lines.write("abc\n");
    lines.write("def\n");
    expect(writes).toEqual([]);
    lines.write("ghi\n");
    expect(writes).toEqual(["abc\ndef\nghi\n"]);
    lines.write("one\n");
    vi.advanceTimersByTime(199);
    expect(writes).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(["abc\ndef\nghi\n", "one\n"]);
    lines.write("two\n");
    lines.flush();
    expect(writes.at(-1)).toBe("two\n");
    // Nothing left: a flush writes nothing, and the timer that was set is gone.
    lines.flush();
    vi.advanceTimersByTime(1000);
    expect(writes).toHaveLength(3);
  });
});

describe("a process's own log", () => {
  it("loses no line when the process exits at once, nor when it ends on its own", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "log-exit-"));
    const script = path.join(dir, "write.ts");
    const log = path.resolve("lib/server/log.ts");
    fs.writeFileSync(
      script,
      `import { createLogger } from ${JSON.stringify(log)};
const log = createLogger("t", { quiet: false });
const n = Number(process.argv[2]);
for (let i = 0; i < n; i++) log.info("line", { i, pad: "x".repeat(100) });
log.request("GET", "/last", 200, 0);
if (process.argv[3] === "exit") process.exit(0);`,
    );
    try {
      for (const [n, how] of [
        [1, "exit"],
        [20_000, "exit"],
        [20_000, "end"],
      ] as const) {
        const out = execFileSync(process.execPath, ["--import", "tsx", script, String(n), how], {
          encoding: "utf8",
          env: { ...process.env, NODE_ENV: "production" },
          maxBuffer: 64 * 1024 * 1024,
        });
        const lines = out
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l));
        expect(lines).toHaveLength(n + 1);
        expect(lines.at(-2)).toMatchObject({ msg: "line", i: n - 1 });
        expect(lines.at(-1)).toMatchObject({ msg: "request", path: "/last" });
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the request histogram", () => {
  it("scrapes as prom-client's own histogram of the same observations", async () => {
    const observations: [string, string, number, number][] = [
      ["POST", "/v2/transfer/sen", 200, 0.001],
      ["POST", "/v2/transfer/sen", 200, 0.0025],
      ["POST", "/v2/transfer/sen", 200, 0.003],
      ["POST", "/v2/transfer/sen", 422, 0.2],
      ["GET", "unmatched", 404, 12],
      ["GET", "/livez", 200, 0.0001],
    ];
    const ours = new client.Registry();
    const metrics = httpMetrics(ours, "x");
    const theirs = new client.Registry();
    const reference = new client.Histogram({
      name: "x_http_request_duration_seconds",
      help: "Time from a request's arrival to its answer, by method, route pattern and status",
      labelNames: ["method", "route", "status"] as const,
      buckets: [0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [theirs],
    });
    for (const [method, route, status, s] of observations) {
      metrics.observe(method, route, status, s);
      reference.observe({ method, route, status: String(status) }, s);
    }
    const histogramLines = (text: string) =>
      text
        .split("\n")
        .filter((l) => l.startsWith("x_http_request_duration_seconds"))
        .sort();
    const text = await ours.metrics();
    expect(histogramLines(text)).toEqual(histogramLines(await theirs.metrics()));
    expect(text).toContain('x_http_requests_total{method="POST",route="/v2/transfer/sen",status="200"} 3');
    expect(text).toContain("# TYPE x_http_request_duration_seconds histogram");
  });
});
