// The document and the server agree on every constrained field: for each query parameter, body
// field and header the document constrains, values are sent to the bank one at a time on an
// otherwise valid request, and the document's verdict (JSON Schema, through Ajv, plus the x-
// keywords) must equal the bank's (a 400 naming that field, or not). Every JSON answer of 200 is
// also checked against the document's response schema.
import { randomUUID } from "node:crypto";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { isAbaRoutingNumber } from "../../lib/bank-api/rules.ts";
import {
  call,
  type LooseJson,
  sandboxCustomer,
  startTestBank,
  type TestBank,
  wireBody,
} from "../helpers/bank.ts";

/** An OpenAPI document or schema object, walked by key. */
type Json = Record<string, LooseJson>;

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
// The document's own keywords, with the meaning its description gives them.
ajv.addKeyword({
  keyword: "x-decimal-places",
  type: "number",
  validate: (places: number, n: number) =>
    (String(n).split(".")[1] ?? "").length <= places && !/e/i.test(String(n)),
});
ajv.addKeyword({
  keyword: "x-max-text-length",
  type: "number",
  validate: (max: number, n: number) => String(n).length <= max,
});
ajv.addKeyword({
  keyword: "x-aba-check-digit",
  type: "string",
  validate: (on: boolean, s: string) => !on || isAbaRoutingNumber(s),
});
// "Must exist" is judged against what the test knows exists: this customer's accounts.
const known = new Set<string>();
ajv.addKeyword({ keyword: "x-exists", type: "string", validate: (_: string, s: string) => known.has(s) });
// JSON Schema lets a validator assert content: a Base64 text of a JSON document of contentSchema.
ajv.addKeyword({
  keyword: "x-assert-content",
  type: "string",
  validate: (schema: Json, s: string) => {
    try {
      const text = Buffer.from(s, "base64").toString("utf8");
      return ajv.validate(schema, JSON.parse(text)) as boolean;
    } catch {
      return false;
    }
  },
});
for (const keyword of [
  "x-case-insensitive",
  "x-required-unless",
  "x-required-with",
  "x-not-before",
  "x-within-days-of",
  "xml",
])
  ajv.addKeyword({ keyword });

/** The document with its content rules made assertions (Ajv reads contentSchema as an annotation). */
function asserting(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asserting);
  if (!schema || typeof schema !== "object") return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) out[k] = asserting(v);
  if (out.contentMediaType === "application/json" && out.contentEncoding === "base64" && out.contentSchema)
    out["x-assert-content"] = out.contentSchema;
  return out;
}

const docValid = (schema: Json, value: unknown) => ajv.validate(schema, value) as boolean;

let bank: TestBank;
let doc: Json;
let key: string;
let token: string;
const acct = { sen1: "", sen2: "", dda: "" };
const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());

beforeAll(async () => {
  bank = await startTestBank();
  const c = await sandboxCustomer(bank, "Agreement Corp");
  acct.sen1 = await c.account("SEN", 100_000);
  acct.sen2 = await c.account("SEN", 0);
  acct.dda = await c.account("DDA", 100_000);
  for (const a of Object.values(acct)) known.add(a);
  key = c.subscriptionKey;
  const t = await call(bank.url, "GET", "/v2/access/token", {
    headers: { [BANK_HEADERS.subscriptionKey]: key },
  });
  token = t.headers.get("authorization") as string;
  doc = asserting(await (await fetch(`${bank.url}/openapi.json`)).json()) as Json;
});
afterAll(async () => {
  await bank?.close();
});

interface Base {
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** A request per operation that the bank takes (it may refuse it on business grounds, never as malformed). */
function baseRequest(operationId: string): Base {
  const day = today();
  const wire = wireBody(acct.dda, 1.5, {
    beneficiary_bank_type: "ABA",
    beneficiary_bank_routing_id: "011000015",
  });
  const bases: Record<string, Base> = {
    accountList: { query: { sequenceNumber: "5" } },
    balance: { query: { accountNumber: acct.sen1, sequenceNumber: "5" } },
    cashManagerBalance: { query: { accountNumber: acct.sen1 } },
    createSen: {
      body: {
        SequenceNumber: 12,
        ExpectedBalance: 1000,
        ExpectedIncomingAmtMonth: 1000,
        ExpectedOutgoingAmtMonth: 1000,
        AltTitleLine1: "Agreement",
      },
    },
    transferSen: {
      body: { SequenceNumber: 1, AccountNumberFrom: acct.sen1, AccountNumberTo: acct.sen2, Amount: 0.01 },
    },
    history: { query: { accountNumber: acct.sen1, beginDate: day, endDate: day, displayOrder: "A" } },
    extendedHistory: { query: { accountNumber: acct.sen1, date: day, displayOrder: "D" } },
    wireSummary: { query: { accountNumber: acct.dda, date: day, sourceIndicator: "I" } },
    initiatePayment: { body: wire },
    initiatePaymentBackup: { body: wire },
    listPayments: {
      query: {
        account_number: acct.dda,
        begin_date: day,
        end_date: day,
        sort_order: "asc",
        page_size: "10",
        page_number: "1",
      },
    },
    paymentAction: {
      query: {
        account_number: acct.dda,
        payment_id: "O260101ZZZZZZZZ",
        action: "cancel",
        timestamp: "2026-01-01 00:00:00.000",
      },
    },
    paymentActionBackup: {
      query: {
        account_number: acct.dda,
        payment_id: "O260101ZZZZZZZZ",
        action: "cancel",
        timestamp: "2026-01-01 00:00:00.000",
      },
    },
    registerWebhook: {
      body: { AccountNumber: acct.sen1, WebHookUrl: "http://127.0.0.1:9/agreement", Description: "x" },
    },
    listWebhooks: { query: { accountNumber: acct.sen1 } },
    deleteWebhook: { query: { webHookId: "wh_does_not_exist" } },
  };
  return structuredClone(bases[operationId] ?? {});
}

/** Values that excuse a parameter named in x-required-unless. */
const EXCUSES: Record<string, string> = {
  payment_id: "O260101ZZZZZZZZ",
  uniqueId: "1",
  transactionNumber: "1",
};

const CONSTRAINTS = [
  "enum",
  "pattern",
  "maxLength",
  "minLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "format",
];
const isConstrained = (s: Json) =>
  CONSTRAINTS.some((k) => s[k] !== undefined) || s["x-decimal-places"] !== undefined;

/** Candidate values for a constrained schema: the base value, the codes, and values at and past each limit. */
function candidates(schema: Json, base: unknown): unknown[] {
  const out: unknown[] = [];
  if (base !== undefined) out.push(base);
  if (schema.type === "number" || schema.type === "integer") {
    out.push(1, 0, -1, 1.5, 1.234, 99_999_999, 100_000_000, -100_000_000, 2 ** 31, 1e14);
    if (schema.maximum !== undefined) out.push(schema.maximum, schema.maximum + 1);
    if (schema.minimum !== undefined) out.push(schema.minimum, schema.minimum - 1);
    return out;
  }
  for (const v of schema.enum ?? []) if (v !== "") out.push(v);
  out.push("ZZZZZ", "!", "abc");
  if (schema.maxLength !== undefined)
    out.push("1".repeat(schema.maxLength), "1".repeat(schema.maxLength + 1));
  if (schema.format === "uri" || schema.pattern?.includes("[hH]")) out.push("not a url", "ftp://x.example/");
  if (schema.pattern?.includes("\\d{4}")) {
    const day = today();
    out.push(
      day,
      `${day}T12:00:00Z`,
      `${day} 12:00:00.5-05:00`,
      day.split("-").reverse().join("/"),
      `${day}T12:00`,
    );
  }
  if (schema.pattern === "^\\d{9}$") out.push("011000015", "011000016", "12345678");
  if (schema.contentEncoding === "base64")
    out.push(Buffer.from(JSON.stringify({ AccountNumber: acct.sen1 })).toString("base64"), "e30=");
  if (schema.pattern?.includes("[0-9a-fA-F]")) {
    const g = randomUUID();
    out.push(
      g.toUpperCase(),
      `{${g}}`,
      g.replace(/-/g, ""),
      g.slice(0, 35),
      `${g.slice(0, 9)}${g.slice(9).replace(/-/g, "")}`,
    );
  }
  return out;
}

interface Probe {
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

async function send(method: string, path: string, p: Probe) {
  return call(bank.url, method, path, {
    query: p.query,
    body: p.body,
    headers: { [BANK_HEADERS.subscriptionKey]: key, Authorization: token, ...(p.headers ?? {}) },
  });
}

const names = (r: { status: number; json: unknown }) =>
  r.status === 400
    ? (((r.json as { errors?: { field: string }[] } | undefined)?.errors ?? []) as { field: string }[]).map(
        (e) => e.field.toLowerCase(),
      )
    : [];

/** Query text for a candidate as a client would write it. */
const asQuery = (v: unknown) => String(v);
/** How a validator reads query text against a numeric schema. */
const queryValue = (schema: Json, text: string): unknown =>
  (schema.type === "integer" || schema.type === "number") && /^-?\d+(\.\d+)?$/.test(text)
    ? Number(text)
    : text;

interface Disagreement {
  op: string;
  field: string;
  value: unknown;
  document: boolean;
  bank: boolean;
  answer: string;
}

describe("the OpenAPI document and the bank agree", () => {
  it("on every constrained query parameter, body field and header, and every JSON answer", async () => {
    const disagreements: Disagreement[] = [];
    const badAnswers: string[] = [];
    let probes = 0;
    const record = async (
      op: Json,
      method: string,
      path: string,
      field: string,
      value: unknown,
      document: boolean,
      p: Probe,
    ) => {
      const r = await send(method, path, p);
      probes++;
      const bankOk = !names(r).includes(field.toLowerCase());
      if (r.status >= 500)
        badAnswers.push(`${method} ${path} ${field}=${JSON.stringify(value)}: ${r.status}`);
      if (document !== bankOk)
        disagreements.push({
          op: op.operationId,
          field,
          value,
          document,
          bank: bankOk,
          answer: r.text.slice(0, 200),
        });
      const schema = op.responses["200"]?.content?.["application/json"]?.schema;
      if (r.status === 200 && schema && !docValid(schema, r.json))
        badAnswers.push(`${op.operationId}: answer off the document: ${ajv.errorsText(ajv.errors)}`);
    };

    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
      for (const [method, op] of Object.entries(ops)) {
        const base = baseRequest(op.operationId);
        const freshKey = () =>
          (op.parameters as Json[]).some((p) => p.name === BANK_HEADERS.idempotencyKey)
            ? { [BANK_HEADERS.idempotencyKey]: randomUUID() }
            : undefined;
        for (const param of op.parameters as Json[]) {
          if (param.in === "header") {
            if (!isConstrained(param.schema)) continue;
            for (const v of candidates(param.schema, undefined))
              await record(op, method.toUpperCase(), path, param.name, v, docValid(param.schema, v), {
                ...base,
                headers: { [param.name]: String(v) },
              });
            continue;
          }
          const b = base.query?.[param.name];
          if (isConstrained(param.schema)) {
            for (const v of candidates(param.schema, b)) {
              const text = asQuery(v);
              await record(
                op,
                method.toUpperCase(),
                path,
                param.name,
                v,
                docValid(param.schema, queryValue(param.schema, text)),
                {
                  query: { ...base.query, [param.name]: text },
                  body: base.body,
                  headers: freshKey(),
                },
              );
            }
          }
          // Required with another: absent while that one is given is refused.
          const requiredWith = param.schema["x-required-with"] as string[] | undefined;
          for (const other of requiredWith ?? []) {
            const without = { ...base.query };
            delete without[param.name];
            for (const e of (param["x-required-unless"] as string[] | undefined) ?? [])
              without[e] = EXCUSES[e];
            await record(op, method.toUpperCase(), path, param.name, `(absent, ${other} given)`, false, {
              query: { ...without, [other]: base.query?.[other] ?? today() },
            });
          }
          // Required unless another is given: absent with none of them is refused, with one it is not.
          const excusedBy = param["x-required-unless"] as string[] | undefined;
          if (excusedBy) {
            const without = { ...base.query };
            delete without[param.name];
            for (const e of excusedBy) delete without[e];
            // Parameters that need this one go with it.
            for (const other of requiredWith ?? []) delete without[other];
            await record(op, method.toUpperCase(), path, param.name, undefined, false, { query: without });
            await record(op, method.toUpperCase(), path, param.name, `(${excusedBy[0]} given)`, true, {
              query: { ...without, [excusedBy[0]]: EXCUSES[excusedBy[0]] },
            });
          }
        }
        const body = op.requestBody?.content?.["application/json"]?.schema as Json | undefined;
        if (!body) continue;
        for (const [field, schema] of Object.entries(body.properties as Record<string, Json>)) {
          if (!isConstrained(schema)) continue;
          for (const v of candidates(schema, base.body?.[field])) {
            const candidate = { ...base.body, [field]: v };
            await record(op, method.toUpperCase(), path, field, v, !fieldRefused(body, candidate, field), {
              body: candidate,
              headers: freshKey(),
            });
          }
        }
        if (body.anyOf) {
          // Each alternative alone satisfies the body; none of them is refused, naming the first.
          const alternatives = (body.anyOf as Json[]).map((a) => a.required[0] as string);
          const none = { ...base.body };
          for (const a of alternatives) delete none[a];
          await record(
            op,
            method.toUpperCase(),
            path,
            alternatives[0],
            "(none given)",
            docValid(body, none),
            { body: none },
          );
          const emailsOnly = { ...none, Emails: "treasury@agreement.example" };
          await record(
            op,
            method.toUpperCase(),
            path,
            alternatives[0],
            "(Emails alone)",
            docValid(body, emailsOnly),
            {
              body: emailsOnly,
            },
          );
        }
      }
    }
    expect(badAnswers).toEqual([]);
    expect(disagreements).toEqual([]);
    expect(probes).toBeGreaterThan(200);
  }, 300_000);
});

/** Whether the document refuses this body because of this field (its own schema, or a rule naming it). */
function fieldRefused(body: Json, candidate: Json, field: string): boolean {
  const own = body.properties[field] as Json;
  if (!docValid(own, candidate[field])) return true;
  if (!docValid(body, candidate)) {
    return (ajv.errors ?? []).some(
      (e) => e.instancePath === `/${field}` || e.params?.missingProperty === field,
    );
  }
  return false;
}
