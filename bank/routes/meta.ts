// GET /healthz, /livez, /readyz and /metrics, GET /openapi.json and GET /docs: liveness and
// readiness for a load balancer, Prometheus metrics, the generated contract, a readable reference.
import { type EndpointDef, endpoints } from "../../lib/bank-api/endpoints.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { buildOpenApi } from "../../lib/bank-api/openapi.ts";
import { migrationsApplied } from "../../lib/server/database.ts";
import { bearerMatches, scrape } from "../../lib/server/metrics.ts";
import type { Bank } from "../context.ts";
import { BANK_SCHEMA_SOURCE } from "../db/client.ts";
import { HttpError } from "../http/errors.ts";
import { type Router, reply } from "../http/router.ts";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] as string);

function fieldRows(schema: Record<string, unknown> | undefined): string {
  const props = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const req = new Set((schema?.required ?? []) as string[]);
  return Object.entries(props)
    .map(([name, s]) => {
      const type = String(s.type ?? (s.anyOf ? "varies" : "object"));
      const limits = [
        s.maxLength !== undefined ? `max ${s.maxLength}` : "",
        s.minimum !== undefined && Math.abs(Number(s.minimum)) < 2 ** 31 - 1 ? `from ${s.minimum}` : "",
        s.maximum !== undefined && Number(s.maximum) < 2 ** 31 - 1 ? `to ${s.maximum}` : "",
        s.enum ? `one of ${(s.enum as string[]).join(", ")}` : "",
      ]
        .filter(Boolean)
        .join("; ");
      return `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(type)}</td><td>${req.has(name) ? "yes" : "no"}</td><td>${escapeHtml(limits)}</td></tr>`;
    })
    .join("");
}

function docsPage(doc: Record<string, unknown>): string {
  const paths = doc.paths as Record<string, Record<string, Record<string, unknown>>>;
  const sections = (Object.values(endpoints) as EndpointDef[])
    .map((e) => {
      const op = paths[e.path][e.method.toLowerCase()];
      const params = (
        op.parameters as { name: string; in: string; required: boolean; schema: Record<string, unknown> }[]
      ).filter((p) => p.in === "query");
      const body = (
        op.requestBody as { content: Record<string, { schema: Record<string, unknown> }> } | undefined
      )?.content["application/json"].schema;
      const table = (title: string, rows: string) =>
        rows
          ? `<table><caption>${title}</caption><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Limits</th></tr></thead><tbody>${rows}</tbody></table>`
          : "";
      const queryRows = params
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(String(p.schema.type ?? "string"))}</td><td>${p.required ? "yes" : "no"}</td><td>${p.schema.maxLength !== undefined ? `max ${p.schema.maxLength}` : ""}</td></tr>`,
        )
        .join("");
      return `<section id="${e.method}-${e.path}"><h3><span class="m">${e.method}</span> <code>${e.path}</code></h3><p>${escapeHtml(e.summary)}.${e.idempotent ? ` Accepts <code>${BANK_HEADERS.idempotencyKey}</code>.` : ""}${e.needsToken ? "" : " Subscription key only."}</p>${table("Query parameters", queryRows)}${table("Body fields (JSON or XML, names matched case-insensitively)", fieldRows(body))}</section>`;
    })
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Banking API Service v2 reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#0f172a}h1{font-size:1.6rem}h3{margin-top:2rem;border-top:1px solid #e2e8f0;padding-top:1rem}.m{display:inline-block;min-width:4.5rem;font-size:.8rem;background:#0f172a;color:#fff;border-radius:4px;padding:2px 6px;text-align:center}table{border-collapse:collapse;width:100%;margin:.5rem 0}caption{text-align:left;font-weight:600;padding:.25rem 0}td,th{border:1px solid #e2e8f0;padding:4px 8px;text-align:left;font-size:.9rem}code{font-family:ui-monospace,monospace}</style></head>
<body><h1>Banking API Service v2</h1><p>Every call carries <code>${BANK_HEADERS.subscriptionKey}</code>; all but the token call also carry <code>${BANK_HEADERS.authorization}</code> with the JWT from <code>GET /v2/access/token</code> (raw or <code>Bearer</code>). Errors: <code>400</code> <code>{"statusCode","message","errors":[{"field","message"}]}</code>, <code>401</code>, <code>429</code> (token too soon, with <code>${BANK_HEADERS.retryAfter}</code>), <code>503</code>. The machine-readable contract is <a href="/openapi.json">/openapi.json</a>.</p>${sections}</body></html>`;
}

export function registerMetaRoutes(router: Router, bank: Bank) {
  router.add("GET", "/healthz", async () => {
    await bank.db.query("SELECT 1");
    return reply({ status: "ok" });
  });
  // Liveness: the process answers; nothing else is asked (a slow database must not get it restarted).
  router.add("GET", "/livez", () => reply({ status: "ok" }));
  // Readiness: not stopping, the database answers and every migration is applied.
  router.add("GET", "/readyz", async () => {
    const unready = (reason: string) =>
      reply({ status: "unavailable", reason }, { status: 503, headers: { "retry-after": "1" } });
    if (bank.lifecycle.draining) return unready("stopping");
    try {
      if (!(await migrationsApplied((t) => bank.db.query(t), BANK_SCHEMA_SOURCE.migrations)))
        return unready("migrations not applied");
    } catch {
      return unready("database unavailable");
    }
    return bank.lifecycle.draining ? unready("stopping") : reply({ status: "ok" });
  });
  router.add("GET", "/metrics", async (ctx) => {
    const registry = bank.metrics.registry;
    if (!registry) throw new HttpError(404, "Metrics are off (BANK_METRICS=off)");
    const token = bank.config.metricsToken;
    if (token && !bearerMatches(ctx.header("authorization"), token))
      throw new HttpError(401, "Metrics need Authorization: Bearer <BANK_METRICS_TOKEN>");
    const { contentType, text } = await scrape(registry);
    return reply(undefined, { raw: { contentType, text } });
  });
  let cached: { json: string; html: string } | undefined;
  const docs = () => {
    if (!cached) {
      const doc = buildOpenApi();
      cached = { json: JSON.stringify(doc), html: docsPage(doc) };
    }
    return cached;
  };
  router.add("GET", "/openapi.json", () =>
    reply(undefined, { raw: { contentType: "application/json", text: docs().json } }),
  );
  router.add("GET", "/docs", () =>
    reply(undefined, { raw: { contentType: "text/html; charset=utf-8", text: docs().html } }),
  );
  router.add("GET", "/", () => reply(undefined, { status: 302, headers: { location: "/docs" } }));
}
