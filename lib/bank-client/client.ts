// The dashboard's client of Banking API Service v2, typed by the contract's endpoint table.
// Every answer is checked against the contract's response schema: a mismatch is an error value
// (bank_error), never a crash. Reads are retried with backoff on timeouts and 5xx, never on 4xx;
// writes are never retried here (their safety comes from Idempotency-Key, chosen by the caller).
// Identical reads that overlap share one bank request (see `coalesce`), and a read answered with
// the same bytes as the last time is not parsed and checked again (see `checked`).
import "server-only";
import type { z } from "zod";
import { type RecordPageHead, recordPagesAnswerHead } from "../bank-api/account-response.ts";
import { type EndpointDef, type EndpointName, endpoints } from "../bank-api/endpoints.ts";
import { GatewayErrorSchema, type LongErrorItem, type ShortErrorItem } from "../bank-api/errors.ts";
import { BANK_HEADERS } from "../bank-api/headers.ts";
import { createLogger, type Logger } from "../server/log.ts";
import { SharedWork } from "../server/trace.ts";
import { bankTimeKnown } from "./bank-time.ts";
import { BankCallError, type BankError, type BankResult, unavailable } from "./errors.ts";
import { RecordStream } from "./record-stream.ts";
import type { TokenManager } from "./token-manager.ts";
import { type Origin, parseOrigin, type RawResponse, send } from "./transport.ts";

const defaultLog = createLogger("bank-client");

type Def<N extends EndpointName> = (typeof endpoints)[N];
type Out<S> = S extends z.ZodType ? z.output<S> : never;
type In<S> = S extends z.ZodType ? z.input<S> : never;
export type ResponseOf<N extends EndpointName> = Def<N> extends { response: infer R } ? Out<R> : undefined;
export type QueryOf<N extends EndpointName> = Def<N> extends { query: infer Q } ? In<Q> : never;
export type BodyOf<N extends EndpointName> = Def<N> extends { body: infer B } ? In<B> : never;

export interface CallOptions<N extends EndpointName> {
  query?: Partial<Record<keyof QueryOf<N> & string, string | number | undefined>>;
  body?: BodyOf<N>;
  idempotencyKey?: string;
}

export interface BankClientOptions {
  bankUrl: string;
  subscriptionKey: string;
  tokens: TokenManager;
  timeoutMs?: number;
  /** Extra attempts for reads after a timeout, a network failure or a 5xx. */
  readRetries?: number;
  retryBaseMs?: number;
  /** Where its lines go (tests read them); the process's log otherwise. */
  log?: Logger;
}

/** How much answer text (in UTF-16 code units) the client keeps to recognise unchanged reads. */
const CHECKED_TEXT = 16 * 1024 * 1024;
/**
 * A larger answer is not kept. A day of history (up to 5,000 entries, some 3.5 MB of text) is read
 * once by a statement: kept, four such days and their frozen values stayed reachable through a
 * whole 90-day export, and V8 lets the heap grow to a multiple of what stays reachable (the BAI2
 * export's resident memory grew by 250-270 MB). The polls this is for answer far less.
 */
export const CHECKED_ANSWER_TEXT = 1024 * 1024;

/** An answer read as it arrives (see `Outgoing.sink`), and whether a failed one may be sent again. */
interface Streaming {
  sink: (status: number) => ((chunk: string) => void) | null;
  mayRetry: () => boolean;
}

type Attempt = ({ kind: "response" } & RawResponse) | { kind: "network"; message: string };

/** Reads in progress, by endpoint and query: the one on the wire and the callers for the next. */
interface Flight {
  waiting: {
    promise: Promise<BankResult<unknown>>;
    resolve: (r: Promise<BankResult<unknown>>) => void;
    /** The next read, shared by the callers waiting for it: its lines name them all. */
    work: SharedWork;
  } | null;
}

export class BankClient {
  private readonly timeoutMs: number;
  private readonly readRetries: number;
  private readonly retryBaseMs: number;
  private readonly origin: Origin;
  private readonly log: Logger;
  private readonly flights = new Map<string, Flight>();
  /**
   * The last checked answer of each read, by endpoint and query, while their texts together stay
   * under CHECKED_TEXT: a poll whose answer did not change (the approval queue reads a thousand
   * payments every few seconds) costs a comparison of texts, not a parse and a schema check.
   */
  private readonly checked = new Map<string, { text: string; result: BankResult<unknown> }>();
  private checkedText = 0;

  constructor(private readonly opts: BankClientOptions) {
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.readRetries = opts.readRetries ?? 2;
    this.retryBaseMs = opts.retryBaseMs ?? 200;
    this.origin = parseOrigin(opts.bankUrl);
    this.log = opts.log ?? defaultLog;
  }

  get tokens(): TokenManager {
    return this.opts.tokens;
  }

  /**
   * Calls one endpoint; the answer is the contract's response type or an error value. A read's
   * answer may be shared with other callers of the same read: treat it as read-only.
   */
  call<N extends EndpointName>(name: N, o: CallOptions<N> = {}): Promise<BankResult<ResponseOf<N>>> {
    const def = endpoints[name] as EndpointDef;
    let path = def.path;
    if (o.query) {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(o.query)) if (v !== undefined && v !== null) q.set(k, String(v));
      const qs = q.toString();
      if (qs) path += `?${qs}`;
    }
    if (def.method === "GET" && o.body === undefined) {
      const key = `${def.method} ${path}`;
      return this.coalesce(key, () => this.callSafe(name, def, path, o, key)) as Promise<
        BankResult<ResponseOf<N>>
      >;
    }
    return this.callSafe(name, def, path, o);
  }

  /**
   * Single flight for reads, without serving an answer older than the caller's request: a read
   * that arrives while the same read is on the wire does not take that answer (the bank may have
   * read its rows before a change the caller already saw complete, such as a transfer the user
   * just confirmed). It waits for the read on the wire to finish, then every caller that waited
   * shares one new read, sent after all of them arrived. Each answer therefore comes from a bank
   * request sent after its caller asked; at most two bank requests per distinct read are in
   * progress at once however many callers ask, which is where the saving under load comes from.
   * A failure is shared the same way: the callers of one bank request get its result, whatever it is.
   */
  /**
   * Hears the bank's time from its health check (no token needed): once per process unless `fresh`
   * (a scheduled run, where the sandbox clock may have moved since), so that "today" is the bank's
   * from the first page after a start. False when the bank did not answer: this machine's clock, or
   * the last time heard, stands.
   */
  async learnBankTime(o: { fresh?: boolean } = {}): Promise<boolean> {
    if (bankTimeKnown() && !o.fresh) return true;
    return send(
      this.origin,
      {
        method: "GET",
        path: "/healthz",
        headers: {},
        body: undefined,
        timeoutMs: Math.min(this.timeoutMs, 2_000),
      },
      true,
    ).then(
      (r) => r.status < 500,
      () => false,
    );
  }

  private coalesce(key: string, run: () => Promise<BankResult<unknown>>): Promise<BankResult<unknown>> {
    const flight = this.flights.get(key);
    if (!flight) {
      this.flights.set(key, { waiting: null });
      return this.launch(key, run);
    }
    if (!flight.waiting) {
      let resolve!: (r: Promise<BankResult<unknown>>) => void;
      const promise = new Promise<BankResult<unknown>>((r) => {
        resolve = r;
      });
      flight.waiting = { promise, resolve, work: new SharedWork() };
    }
    flight.waiting.work.join();
    return flight.waiting.promise;
  }

  /** Sends the read now; when it settles, starts the one the waiting callers share, if any. */
  private launch(key: string, run: () => Promise<BankResult<unknown>>): Promise<BankResult<unknown>> {
    const p = run();
    const next = () => {
      const flight = this.flights.get(key);
      const waiting = flight?.waiting;
      if (!flight || !waiting) {
        this.flights.delete(key);
        return;
      }
      flight.waiting = null;
      // Not in the scope of the caller whose read just ended: in one naming those who wait.
      waiting.resolve(waiting.work.run(() => this.launch(key, run)));
    };
    p.then(next, next);
    return p;
  }

  private async callSafe<N extends EndpointName>(
    name: N,
    def: EndpointDef,
    path: string,
    o: CallOptions<N>,
    readKey?: string,
  ): Promise<BankResult<ResponseOf<N>>> {
    try {
      return await this.callUnsafe(name, def, path, o, readKey);
    } catch (e) {
      if (e instanceof BankCallError) return { ok: false, error: e.error };
      this.log.error("bank call failed unexpectedly", { endpoint: name, error: e });
      return { ok: false, error: { kind: "bank_error", message: "The bank's answer could not be read." } };
    }
  }

  private async callUnsafe<N extends EndpointName>(
    name: N,
    def: EndpointDef,
    path: string,
    o: CallOptions<N>,
    readKey?: string,
  ): Promise<BankResult<ResponseOf<N>>> {
    const attempt = await this.exchange(def, path, o);
    if (!readKey || attempt.kind !== "response" || attempt.status !== 200)
      return this.interpret(name, def, attempt);
    const last = this.checked.get(readKey);
    if (last?.text === attempt.text) {
      // Still in use: it goes to the back of the queue for eviction.
      this.checked.delete(readKey);
      this.checked.set(readKey, last);
      return last.result as BankResult<ResponseOf<N>>;
    }
    const result = this.interpret(name, def, attempt);
    if (result.ok) this.remember(readKey, attempt.text, result);
    return result;
  }

  /**
   * A read answered with pages of records (recordPages), read as its text arrives
   * (`RecordStream`): each record checked against the contract's `record` schema and handed to
   * `each` as soon as its text is whole, the rest of the answer checked against the head schema at
   * the end. A day of history (up to 5,000 entries, some 3.5 MB of text) is never held whole, as
   * text or as values. Neither shared with other callers nor kept to recognise an unchanged read.
   * Records already handed on are not sent again: a read that fails in the middle of its answer
   * is not retried.
   */
  async callRecords<N extends EndpointName, T, E>(
    name: N,
    o: CallOptions<N>,
    records: { key: string; schema: z.ZodType<T> },
    each: (record: T, index: number) => E,
  ): Promise<BankResult<{ pages: RecordPageHead[]; records: E[] }>> {
    const def = endpoints[name] as EndpointDef;
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(o.query ?? {}))
      if (v !== undefined && v !== null) qs.set(k, String(v));
    const path = qs.size ? `${def.path}?${qs}` : def.path;
    const fail = (error: BankError) => ({ ok: false as const, error });
    const mismatch = (issues: z.core.$ZodIssue[]) => {
      this.log.error("bank response does not match the contract", {
        endpoint: name,
        issues: issues.slice(0, 5).map((i) => `${i.path.join(".")}: ${i.message}`),
      });
      return fail({ kind: "bank_error", message: "The bank's answer did not match the API contract." });
    };
    let stream: RecordStream<T, E> | null = null;
    const sink = (status: number) => {
      if (status !== 200) return null;
      const s = new RecordStream(records, each);
      stream = s;
      return (chunk: string) => s.push(chunk);
    };
    try {
      const attempt = await this.exchange(def, path, o, {
        sink,
        mayRetry: () => !stream || (stream as RecordStream<T, E>).count === 0,
      });
      if (attempt.kind !== "response" || attempt.status !== 200 || !stream) {
        const r = this.interpret(name, { ...def, response: undefined }, attempt);
        return r.ok ? fail({ kind: "bank_error", message: "The bank's answer could not be read." }) : r;
      }
      const read = stream as RecordStream<T, E>;
      const json = read.end();
      const failure = read.failure;
      if (failure?.kind === "thrown") throw failure.error;
      if (failure) return mismatch(failure.issues);
      const head = recordPagesAnswerHead.safeParse(json);
      if (!head.success) return mismatch(head.error.issues);
      const items = businessErrors(head.data);
      if (items.length)
        return fail({
          kind: "rejected",
          status: 200,
          message: items.map((i) => i.ERRORMSG).join("; "),
          fields: items.filter((i) => i.FIELDNAME).map((i) => ({ field: i.FIELDNAME, message: i.ERRORMSG })),
        });
      // Every page holds its list of records (left empty in the head: its records were read above).
      for (const [p, page] of (
        (json as { ResponseData: Record<string, unknown>[] }).ResponseData ?? []
      ).entries())
        if (!Array.isArray(page[records.key]))
          return mismatch([
            {
              code: "invalid_type",
              expected: "array",
              path: ["ResponseData", p, records.key],
              message: "Expected array",
            },
          ] as z.core.$ZodIssue[]);
      return { ok: true, data: { pages: head.data.ResponseData, records: read.out } };
    } catch (e) {
      if (e instanceof BankCallError) return { ok: false, error: e.error };
      this.log.error("bank call failed unexpectedly", { endpoint: name, error: e });
      return { ok: false, error: { kind: "bank_error", message: "The bank's answer could not be read." } };
    }
  }

  /** Sends a call with the current token, once more with a renewed one after a 401. */
  private async exchange<N extends EndpointName>(
    def: EndpointDef,
    path: string,
    o: CallOptions<N>,
    streaming?: Streaming,
  ): Promise<Attempt> {
    const body = o.body === undefined ? undefined : JSON.stringify(o.body);
    let token = await this.opts.tokens.getToken();
    let attempt = await this.send(def, path, token, body, o.idempotencyKey, streaming);
    if (attempt.kind === "response" && attempt.status === 401) {
      // One renewal after a 401: the token may have lapsed early (clock skew, a restart of the bank).
      token = await this.opts.tokens.renewAfterRejection(token);
      attempt = await this.send(def, path, token, body, o.idempotencyKey, streaming);
    }
    return attempt;
  }

  /** Keeps a read's checked answer beside its text, the oldest going first past CHECKED_TEXT. */
  private remember(key: string, text: string, result: BankResult<unknown>): void {
    const old = this.checked.get(key);
    if (old) {
      this.checked.delete(key);
      this.checkedText -= old.text.length;
    }
    if (text.length > CHECKED_ANSWER_TEXT) return;
    // Callers to come get this very value: frozen, a caller that changed it would fail loudly.
    deepFreeze(result);
    this.checked.set(key, { text, result });
    this.checkedText += text.length;
    for (const [k, v] of this.checked) {
      if (this.checkedText <= CHECKED_TEXT) break;
      this.checked.delete(k);
      this.checkedText -= v.text.length;
    }
  }

  private async send(
    def: EndpointDef,
    path: string,
    token: string,
    body: string | undefined,
    idempotencyKey: string | undefined,
    streaming?: Streaming,
  ): Promise<Attempt> {
    const retries = def.method === "GET" ? this.readRetries : 0;
    const keyed = !!idempotencyKey && !!def.idempotent;
    const headers: Record<string, string> = {
      [BANK_HEADERS.subscriptionKey]: this.opts.subscriptionKey,
      [BANK_HEADERS.authorization]: token,
      Accept: "application/json",
    };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (keyed) headers[BANK_HEADERS.idempotencyKey] = idempotencyKey as string;
    let last: Attempt = { kind: "network", message: "not sent" };
    for (let i = 0; i <= retries; i++) {
      if (i > 0 && streaming && !streaming.mayRetry()) break;
      if (i > 0) await sleep(this.retryBaseMs * 3 ** (i - 1));
      try {
        const res = await send(
          this.origin,
          { method: def.method, path, headers, body, timeoutMs: this.timeoutMs, sink: streaming?.sink },
          def.method === "GET" || keyed,
        );
        last = { kind: "response", ...res };
        if (res.status < 500) return last;
      } catch (e) {
        const err = e as Error;
        last = {
          kind: "network",
          message: err.name === "TimeoutError" ? `no answer within ${this.timeoutMs / 1000} s` : err.message,
        };
      }
    }
    return last;
  }

  private interpret<N extends EndpointName>(
    name: N,
    def: EndpointDef,
    a: Attempt,
  ): BankResult<ResponseOf<N>> {
    const fail = (error: BankError): BankResult<ResponseOf<N>> => ({ ok: false, error });
    if (a.kind === "network") {
      // The reason (an internal address, a system error code) is for the log, not for the user.
      this.log.warn("bank unreachable", { endpoint: name, reason: a.message });
      // A timeout says how long the dashboard waited; any other network failure is "cannot be reached".
      return fail(
        unavailable(
          a.message.startsWith("no answer within")
            ? `The bank did not answer (${a.message}). Try again in a moment.`
            : "The bank cannot be reached right now. Try again in a moment.",
        ),
      );
    }
    const res = a;
    const json = parseJson(a.text);
    const gateway = GatewayErrorSchema.safeParse(json);
    const bankMessage = gateway.success ? gateway.data.message : "";
    switch (res.status) {
      case 200:
        break;
      case 400:
        return fail({
          kind: "rejected",
          status: 400,
          message: `The bank rejected the request: ${bankMessage || "invalid request information"}.`,
          fields: gateway.success ? gateway.data.errors : undefined,
        });
      case 401:
        this.log.warn("bank refused the access token after one renewal", { endpoint: name });
        return fail({
          kind: "bank_error",
          status: 401,
          message: "The bank did not accept the dashboard's credentials.",
        });
      case 429:
      case 503:
        // The status stays on the error: a 503 is a definite "not done", which lets a wire go to
        // the backup log, where a timeout leaves its fate unknown.
        return fail({
          ...unavailable(
            `The bank is unavailable${bankMessage ? `: ${bankMessage}` : ""}. Try again in a moment.`,
            Number(res.headers[BANK_HEADERS.retryAfter.toLowerCase()]) || undefined,
          ),
          status: res.status,
        });
      default:
        this.log.warn("bank answered an unexpected status", { endpoint: name, status: res.status });
        return fail(
          res.status >= 500
            ? unavailable(`The bank is unavailable (HTTP ${res.status}). Try again in a moment.`)
            : { kind: "bank_error", status: res.status, message: `The bank answered HTTP ${res.status}.` },
        );
    }
    if (!def.response) return { ok: true, data: undefined as ResponseOf<N> };
    const parsed = def.response.safeParse(json);
    if (!parsed.success) {
      this.log.error("bank response does not match the contract", {
        endpoint: name,
        issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".")}: ${i.message}`),
      });
      return fail({ kind: "bank_error", message: "The bank's answer did not match the API contract." });
    }
    const data = parsed.data as ResponseOf<N>;
    const items = businessErrors(data);
    if (items.length) {
      return fail({
        kind: "rejected",
        status: 200,
        message: items.map((i) => i.ERRORMSG).join("; "),
        fields: items.filter((i) => i.FIELDNAME).map((i) => ({ field: i.FIELDNAME, message: i.ERRORMSG })),
      });
    }
    return { ok: true, data };
  }
}

/** ERROR (account side) or Errors (creation, e-wire) items of a 200 answer. */
export function businessErrors(data: unknown): (LongErrorItem | ShortErrorItem)[] {
  if (!data || typeof data !== "object" || Array.isArray(data)) return [];
  const d = data as { ERROR?: unknown; Errors?: unknown };
  const items = (Array.isArray(d.ERROR) ? d.ERROR : Array.isArray(d.Errors) ? d.Errors : []) as (
    | LongErrorItem
    | ShortErrorItem
  )[];
  return items;
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function deepFreeze(value: unknown): void {
  if (!value || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
