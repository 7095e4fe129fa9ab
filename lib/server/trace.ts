// One action followed across both programs: every request runs in a scope that holds its request
// id and its W3C trace context (`traceparent`), every log line written inside it carries them, and
// the dashboard's calls to the bank send the trace on, so the bank's lines name the same trace.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

export interface RequestScope {
  /** This program's id of the request (the `X-Request-Id` answer header). */
  requestId: string;
  /** 32 lowercase hex digits, shared by every program the action passes through. */
  traceId: string;
  /** 16 lowercase hex digits: this request's own span in the trace. */
  spanId: string;
  /** Shared work (one bank read or token renewal for several requests): the requests waiting on it. */
  waiting?: Set<string>;
}

// One store per process, kept on globalThis: route bundles may load this module more than once, and
// the scope a route handler opens must be the one the shared bank client reads.
const STORE = Symbol.for("treasury.requestScopes");
const g = globalThis as { [STORE]?: AsyncLocalStorage<RequestScope> };
g[STORE] ??= new AsyncLocalStorage<RequestScope>();
const scopes = g[STORE];

// version 00; trace-id and parent-id must not be all zeros; flags two hex digits.
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
const ZEROS = /^0+$/;

/** The trace id and parent span id of a valid `traceparent` header, else null. */
export function parseTraceparent(
  header: string | null | undefined,
): { traceId: string; parentId: string } | null {
  const m = TRACEPARENT.exec((header ?? "").trim());
  if (!m || ZEROS.test(m[1]) || ZEROS.test(m[2])) return null;
  return { traceId: m[1], parentId: m[2] };
}

// From randomUUID, which draws on a cached pool: randomBytes per request cost several microseconds.
const hex = () => randomUUID().replaceAll("-", "");
export const newTraceId = hex;
export const newSpanId = () => hex().slice(16);

/** A scope for an incoming request: it continues the caller's trace when the header is valid. */
export function scopeFor(
  traceparent: string | null | undefined,
  requestId: string = randomUUID(),
): RequestScope {
  const parent = parseTraceparent(traceparent);
  return { requestId, traceId: parent?.traceId ?? newTraceId(), spanId: newSpanId() };
}

export function inScope<T>(scope: RequestScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

export function currentScope(): RequestScope | undefined {
  return scopes.getStore();
}

/** Headers for a call to another program: the given ones, plus `traceparent` inside a request. */
export function withTrace(headers: Record<string, string>): Record<string, string> {
  const tp = outgoingTraceparent();
  return tp ? { ...headers, traceparent: tp } : headers;
}

/** The `traceparent` an outgoing call of the current request carries (sampled), or undefined outside one. */
export function outgoingTraceparent(): string | undefined {
  const s = scopes.getStore();
  return s ? `00-${s.traceId}-${s.spanId}-01` : undefined;
}

/**
 * Work that several requests wait on (a token renewal, a read they share). It runs in a scope of
 * its own, not in the scope of the request that happened to start it, which may have been
 * answered long before: its log lines name every request waiting on it (`waitingRequests`), and
 * its calls to the bank continue the trace of the first of them.
 */
export class SharedWork {
  private readonly scope: RequestScope & { waiting: Set<string> };

  constructor() {
    const first = scopes.getStore();
    this.scope = {
      requestId: "",
      traceId: first?.traceId ?? newTraceId(),
      spanId: newSpanId(),
      waiting: new Set(),
    };
  }

  /** The current request (or the requests of the current shared work) now waits on this work. */
  join(): this {
    const s = scopes.getStore();
    if (s?.waiting) for (const id of s.waiting) this.scope.waiting.add(id);
    else if (s) this.scope.waiting.add(s.requestId);
    return this;
  }

  run<T>(fn: () => T): T {
    return scopes.run(this.scope, fn);
  }
}
