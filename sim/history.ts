// What every client asked and what it was told, in the order the answers came (Jepsen's history).
// The checker reads it, never the product's own view of what happened. An answer that never came
// (an aborted request, a process killed mid-request) is recorded as such: the request may or may
// not have taken effect, and the invariants allow both.

export interface Call {
  /** The schedule operation it belongs to. */
  op: number;
  /** Who asked: a person of the dashboard, the integrating client, the outside world (sandbox). */
  actor: string;
  /** Which of the actor's sessions (a revoked one, a temporary one) carried it. */
  session?: string;
  target: string;
  method: string;
  path: string;
  body?: unknown;
  status: number | "aborted" | "failed";
  answer?: unknown;
  text?: string;
  t0: number;
  t1: number;
}

export class History {
  readonly calls: Call[] = [];

  async call(
    c: Omit<Call, "status" | "t0" | "t1" | "answer" | "text">,
    o: { url: string; headers?: Record<string, string>; abortMs?: number; timeoutMs?: number },
  ): Promise<Call> {
    const t0 = Date.now();
    const ctl = new AbortController();
    const timers: NodeJS.Timeout[] = [];
    let aborted = false;
    if (o.abortMs !== undefined)
      timers.push(
        setTimeout(() => {
          aborted = true;
          ctl.abort();
        }, o.abortMs),
      );
    timers.push(setTimeout(() => ctl.abort(), o.timeoutMs ?? 60_000));
    const rec: Call = { ...c, status: "failed", t0, t1: t0 };
    try {
      const res = await fetch(o.url, {
        method: c.method,
        headers: {
          ...(c.body !== undefined ? { "content-type": "application/json" } : {}),
          ...(o.headers ?? {}),
        },
        body: c.body === undefined ? undefined : JSON.stringify(c.body),
        signal: ctl.signal,
        redirect: "manual",
      });
      const text = await res.text();
      rec.status = res.status;
      rec.text = text.length > 4000 ? `${text.slice(0, 4000)}…` : text;
      try {
        rec.answer = text ? JSON.parse(text) : undefined;
      } catch {}
      Object.defineProperty(rec, "headers", { value: res.headers, enumerable: false });
    } catch {
      rec.status = aborted ? "aborted" : "failed";
    } finally {
      for (const t of timers) clearTimeout(t);
    }
    rec.t1 = Date.now();
    this.calls.push(rec);
    return rec;
  }
}

export const ok = (c: Call) => typeof c.status === "number" && c.status >= 200 && c.status < 300;
export const definite = (c: Call) => typeof c.status === "number";
