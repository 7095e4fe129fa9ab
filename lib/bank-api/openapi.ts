// OpenAPI 3.1 generated from the endpoint table: the published contract cannot drift from the code.
import { z } from "zod";
import { type EndpointDef, endpoints } from "./endpoints.ts";
import { gatewayErrorSchema } from "./errors.ts";
import { BANK_HEADERS } from "./headers.ts";

type Json = Record<string, unknown>;

function schemaOf(s: z.ZodType, io: "input" | "output"): Json {
  const j = z.toJSONSchema(s, { io, unrepresentable: "any", target: "draft-2020-12" }) as Json;
  delete j.$schema;
  return j;
}

function queryParameters(s: z.ZodType | undefined): Json[] {
  if (!s) return [];
  const j = schemaOf(s, "input");
  const props = (j.properties ?? {}) as Record<string, Json>;
  const req = new Set((j.required ?? []) as string[]);
  return Object.entries(props).map(([name, schema]) => ({
    name,
    in: "query",
    required: req.has(name),
    // Whole numbers arrive as query text; the contract's pattern is the integer format.
    schema: schema.pattern === "^-?\\d{1,10}$" ? { type: "integer", format: "int32" } : schema,
  }));
}

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: schemaOf(gatewayErrorSchema, "output") } },
});

export function buildOpenApi(serverUrl?: string): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const [name, e] of Object.entries(endpoints) as [string, EndpointDef][]) {
    const headers: Json[] = [
      { name: BANK_HEADERS.subscriptionKey, in: "header", required: true, schema: { type: "string" } },
    ];
    if (e.needsToken) {
      headers.push({
        name: BANK_HEADERS.authorization,
        in: "header",
        required: true,
        description: "The JWT from GET /v2/access/token, raw or as `Bearer <jwt>`",
        schema: { type: "string" },
      });
    }
    if (e.idempotent) {
      headers.push({
        name: BANK_HEADERS.idempotencyKey,
        in: "header",
        required: false,
        description:
          "A GUID in any spelling (case, braces, hyphens), compared in its canonical form; the same key and body return the first response and act once",
        schema: { type: "string", maxLength: 64 },
      });
    }
    const op: Json = {
      operationId: name,
      summary: e.summary,
      tags: [e.tag],
      parameters: [...headers, ...queryParameters(e.query)],
      responses: {
        "200": e.response
          ? {
              description: "Success (business rejections arrive in the ERROR / Errors arrays)",
              content: {
                "application/json": { schema: schemaOf(e.response, "output") },
                "application/xml": { schema: schemaOf(e.response, "output") },
              },
            }
          : {
              description: `The JWT is in the ${BANK_HEADERS.authorization} response header; no body`,
              headers: { [BANK_HEADERS.authorization]: { schema: { type: "string" } } },
            },
        "400": errorResponse("Invalid request: `errors` names each field"),
        "401": errorResponse("The subscription key or token cannot be authenticated"),
        ...(e.needsToken
          ? {}
          : {
              "429": errorResponse(
                `A token was issued to this key too recently; see ${BANK_HEADERS.retryAfter}`,
              ),
            }),
        "503": errorResponse("Host connection cannot be established"),
      },
    };
    if (e.body) {
      const s = schemaOf(e.body, "input");
      op.requestBody = {
        required: true,
        content: { "application/json": { schema: s }, "application/xml": { schema: s } },
      };
    }
    paths[e.path] ??= {};
    paths[e.path][e.method.toLowerCase()] = op;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Banking API Service v2",
      version: "2.0",
      description:
        "Account inquiry, SEN accounts and transfers, wire payments, e-wire summaries, balance webhooks and tokens.",
    },
    servers: serverUrl ? [{ url: serverUrl }] : [],
    paths,
  };
}
