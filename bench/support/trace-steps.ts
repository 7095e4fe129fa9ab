// Where the queue's slowest j/k steps spent their time, from a trace that
// `BENCH_TRACE=<file> npm run bench -- incoming-wires` wrote: for each step (between its marks
// "jk <i>" and "jk end <i>") what the renderer main thread ran, and inside that (events, timers,
// script, style, layout, paint, GC; wall time, and CPU time where the thread was descheduled) and
// the gaps where the thread waited; then the CPU time of every step by kind of work: the key's
// handling, the frame, and anything else that ran inside a step (a poll's answer, a timer, GC).
//   node --import tsx bench/support/trace-steps.ts <trace.json> [how many steps, 8]
import fs from "node:fs";

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time: less than dur when the thread was descheduled. */
  tdur?: number;
  tts?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown>; [k: string]: unknown };
}

interface Slice {
  name: string;
  ts: number;
  end: number;
  /** CPU time, when the trace has it. */
  cpu?: number;
  depth: number;
  label: string;
}

const [file, howMany = "8"] = process.argv.slice(2);
if (!file) {
  console.error("usage: trace-steps.ts <trace.json> [steps]");
  process.exit(2);
}
const raw = JSON.parse(fs.readFileSync(file, "utf8")) as { traceEvents?: TraceEvent[] } | TraceEvent[];
const events = Array.isArray(raw) ? raw : (raw.traceEvents ?? []);

const starts = new Map<number, TraceEvent>();
const ends = new Map<number, TraceEvent>();
for (const e of events) {
  const m = /^jk (end )?(\d+)$/.exec(e.name);
  if (!m) continue;
  (m[1] ? ends : starts).set(Number(m[2]), e);
}
const first = starts.get(0);
if (!first) throw new Error("no step marks in the trace");
const { pid, tid } = first;

/** What an event was about, in a few words. */
function label(e: TraceEvent): string {
  const d = e.args?.data ?? {};
  switch (e.name) {
    case "EventDispatch":
      return `EventDispatch ${d.type}`;
    case "FunctionCall":
      return `FunctionCall ${d.functionName || "(anonymous)"} ${String(d.url ?? "")
        .split("/")
        .pop()}:${d.lineNumber ?? ""}`;
    case "TimerFire":
      return `TimerFire ${d.timerId}`;
    case "XHRReadyStateChange":
    case "ResourceReceivedData":
    case "ResourceFinish":
      return `${e.name} ${String(d.url ?? "").split("?")[0]}`;
    case "Layout": {
      const b = e.args?.beginData as { dirtyObjects?: number; totalObjects?: number } | undefined;
      return `Layout ${b?.dirtyObjects ?? "?"}/${b?.totalObjects ?? "?"} objects`;
    }
    case "UpdateLayoutTree":
      return `UpdateLayoutTree ${(e.args?.elementCount as number | undefined) ?? d.elementCount ?? "?"} elements`;
    default:
      return e.name;
  }
}

// The main thread's complete slices, nested by time.
const open = new Map<string, TraceEvent[]>();
const slices: Slice[] = [];
for (const e of events) {
  if (e.pid !== pid || e.tid !== tid) continue;
  if (e.ph === "X" && e.dur !== undefined)
    slices.push({ name: e.name, ts: e.ts, end: e.ts + e.dur, cpu: e.tdur, depth: 0, label: label(e) });
  else if (e.ph === "B") open.set(e.name, [...(open.get(e.name) ?? []), e]);
  else if (e.ph === "E") {
    const b = open.get(e.name)?.pop();
    if (b)
      slices.push({
        name: b.name,
        ts: b.ts,
        end: e.ts,
        cpu: b.tts !== undefined && e.tts !== undefined ? e.tts - b.tts : undefined,
        depth: 0,
        label: label(b),
      });
  }
}
slices.sort((a, b) => a.ts - b.ts || b.end - a.end);
const stack: Slice[] = [];
for (const s of slices) {
  while (stack.length && stack[stack.length - 1].end <= s.ts) stack.pop();
  s.depth = stack.length;
  stack.push(s);
}

const ms = (us: number) => (us / 1000).toFixed(1);
/** Wall time, and CPU time where it is known and shorter. */
const took = (s: Slice) =>
  s.cpu !== undefined && s.cpu < s.end - s.ts - 500
    ? `${ms(s.end - s.ts)} ms (cpu ${ms(s.cpu)})`
    : `${ms(s.end - s.ts)} ms`;
const steps = [...starts.entries()]
  .filter(([i]) => ends.has(i))
  .map(([i, s]) => ({ i, ts: s.ts, end: (ends.get(i) as TraceEvent).ts }))
  .sort((a, b) => b.end - b.ts - (a.end - a.ts));

// Slices that tell nothing beyond their children.
const CHILD_DEPTH = 8;
const WRAPPERS = new Set(["ThreadControllerImpl::RunTask", "RunTask", "SequenceManager RunTask"]);
for (const step of steps.slice(0, Number(howMany))) {
  console.log(`\nstep ${step.i}: ${ms(step.end - step.ts)} ms between its marks`);
  const inside = slices.filter((s) => s.end > step.ts && s.ts < step.end);
  const tops = inside.filter((s) => s.depth === 0);
  let busy = 0;
  for (const t of tops) {
    const from = Math.max(t.ts, step.ts);
    const to = Math.min(t.end, step.end);
    busy += to - from;
    if (to - from < 300) continue;
    console.log(`  +${ms(from - step.ts)} ${ms(to - from)} ms of ${took(t)} ${t.label}`);
    const kids = inside
      .filter(
        (s) => s.ts >= t.ts && s.end <= t.end && s.depth > 0 && s.depth <= CHILD_DEPTH && s.end - s.ts >= 500,
      )
      .filter((s) => !WRAPPERS.has(s.name));
    for (const k of kids.slice(0, 60))
      console.log(`      ${"  ".repeat(k.depth - 1)}${took(k)} ${k.label} (+${ms(k.ts - step.ts)})`);
  }
  console.log(`  main thread busy ${ms(busy)} ms of ${ms(step.end - step.ts)} ms`);
}

// CPU time per step by kind of work, over every step.
const cpuOf = (s: Slice) => s.cpu ?? s.end - s.ts;
const tops = slices.filter((s) => s.depth === 0);
const kinds = new Map<string, number[]>();
const others: string[] = [];
for (const step of steps) {
  const sums = new Map<string, number>();
  for (const t of tops) {
    if (t.end <= step.ts || t.ts >= step.end) continue;
    const inner = slices.filter((s) => s.ts >= t.ts && s.end <= t.end);
    const kind = inner.some((s) => s.label === "EventDispatch keydown")
      ? "key"
      : inner.some((s) => s.name === "ProxyMain::BeginMainFrame")
        ? "frame"
        : "other";
    sums.set(kind, (sums.get(kind) ?? 0) + cpuOf(t));
    if (kind === "other" && cpuOf(t) >= 2000) {
      const what = inner.find((s) => /FunctionCall|TimerFire|GC|Decode|EventDispatch/.test(s.name));
      others.push(`step ${step.i}: ${ms(cpuOf(t))} ms cpu, ${what?.label ?? t.label}`);
    }
  }
  for (const kind of ["key", "frame", "other"])
    kinds.set(kind, [...(kinds.get(kind) ?? []), sums.get(kind) ?? 0]);
}
console.log("\nCPU per step by kind of work (mean / p95 / max ms):");
for (const [kind, values] of kinds) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  console.log(
    `  ${kind}: ${ms(mean)} / ${ms(sorted[Math.ceil(0.95 * sorted.length) - 1])} / ${ms(sorted[sorted.length - 1])}`,
  );
}
if (others.length) console.log(`other work of 2 ms or more inside steps:\n  ${others.join("\n  ")}`);
