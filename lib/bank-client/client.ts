// The dashboard's client of Banking API Service v2, typed by the contract's endpoint table.
// Every answer is checked against the contract's response schema: a mismatch is an error value
// (bank_error), never a crash. Reads are retried with backoff on timeouts and 5xx, never on 4xx;
// writes are never retried here (their safety comes from Idempotency-Key, chosen by the caller).
import "server-only";
import type { z } from "zod";
import { type EndpointDef, type EndpointName, endpoints } from "../bank-api/endpoints.ts";
import { gatewayErrorSchema, type LongErrorItem, type ShortErrorItem } from "../bank-api/errors.ts";
import { createLogger } from "../server/log.ts";
import { BankCallError, type BankError, type BankResult, unavailable } from "./errors.ts";
import type { TokenManager } from "./token-manager.ts";

const log = createLogger("bank-client", { quiet: process.env.NODE_ENV === "test" });

// Next wraps the global fetch for its data cache. Bank answers are never cached, so calls go to
// the platform's fetch underneath and skip that bookkeeping on every request.
const platformFetch: typeof fetch = (input, init) =>
  ((globalThis.fetch as { _nextOriginalFetch?: typeof fetch })._nextOriginalFetch ?? globalThis.fetch)(
    input,
    init,
  );

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
}

type Attempt = { kind: "response"; res: Response; text: string } | { kind: "network"; message: string };

export class BankClient {
  private readonly timeoutMs: number;
  private readonly readRetries: number;
  private readonly retryBaseMs: number;

  constructor(private readonly opts: BankClientOptions) {
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.readRetries = opts.readRetries ?? 2;
    this.retryBaseMs = opts.retryBaseMs ?? 200;
  }

  get tokens(): TokenManager {
    return this.opts.tokens;
  }

  /** Calls one endpoint; the answer is the contract's response type or an error value. */
  async call<N extends EndpointName>(name: N, o: CallOptions<N> = {}): Promise<BankResult<ResponseOf<N>>> {
    const def = endpoints[name] as EndpointDef;
    try {
      return await this.callUnsafe(name, def, o);
    } catch (e) {
      if (e instanceof BankCallError) return { ok: false, error: e.error };
      log.error("bank call failed unexpectedly", { endpoint: name, error: e });
      return { ok: false, error: { kind: "bank_error", message: "The bank's answer could not be read." } };
    }
  }

  private async callUnsafe<N extends EndpointName>(
    name: N,
    def: EndpointDef,
    o: CallOptions<N>,
  ): Promise<BankResult<ResponseOf<N>>> {
    const url = new URL(def.path, this.opts.bankUrl);
    for (const [k, v] of Object.entries(o.query ?? {}))
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    const body = o.body === undefined ? undefined : JSON.stringify(o.body);

    let token = await this.opts.tokens.getToken();
    let attempt = await this.send(def, url, token, body, o.idempotencyKey);
    if (attempt.kind === "response" && attempt.res.status === 401) {
      // One renewal after a 401: the token may have lapsed early (clock skew, a restart of the bank).
      token = await this.opts.tokens.renewAfterRejection(token);
      attempt = await this.send(def, url, token, body, o.idempotencyKey);
    }
    return this.interpret(name, def, attempt);
  }

  private async send(
    def: EndpointDef,
    url: URL,
    token: string,
    body: string | undefined,
    idempotencyKey: string | undefined,
  ): Promise<Attempt> {
    const retries = def.method === "GET" ? this.readRetries : 0;
    let last: Attempt = { kind: "network", message: "not sent" };
    for (let i = 0; i <= retries; i++) {
      if (i > 0) await sleep(this.retryBaseMs * 3 ** (i - 1));
      try {
        const res = await platformFetch(url, {
          method: def.method,
          headers: {
            "Ocp-Apim-Subscription-Key": this.opts.subscriptionKey,
            Authorization: token,
            Accept: "application/json",
            ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
            ...(idempotencyKey && def.idempotent ? { "Idempotency-Key": idempotencyKey } : {}),
          },
          body,
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        const text = await res.text();
        last = { kind: "response", res, text };
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
      log.warn("bank unreachable", { endpoint: name, reason: a.message });
      return fail(unavailable(`The bank did not answer (${a.message}). Try again in a moment.`));
    }
    const { res, text } = a;
    const json = parseJson(text);
    const gateway = gatewayErrorSchema.safeParse(json);
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
        log.warn("bank refused the access token after one renewal", { endpoint: name });
        return fail({
          kind: "bank_error",
          status: 401,
          message: "The bank did not accept the dashboard's credentials.",
        });
      case 429:
      case 503:
        return fail(
          unavailable(
            `The bank is unavailable${bankMessage ? `: ${bankMessage}` : ""}. Try again in a moment.`,
            Number(res.headers.get("retry-after")) || undefined,
          ),
        );
      default:
        log.warn("bank answered an unexpected status", { endpoint: name, status: res.status });
        return fail(
          res.status >= 500
            ? unavailable(`The bank is unavailable (HTTP ${res.status}). Try again in a moment.`)
            : { kind: "bank_error", status: res.status, message: `The bank answered HTTP ${res.status}.` },
        );
    }
    if (!def.response) return { ok: true, data: undefined as ResponseOf<N> };
    const parsed = def.response.safeParse(json);
    if (!parsed.success) {
      log.error("bank response does not match the contract", {
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
