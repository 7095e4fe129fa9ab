// OpenAPI 3.1 generated from the endpoint table: the published contract cannot drift from the code.
// Every constraint the bank enforces is stated (as JSON Schema, or as an `x-` keyword where JSON
// Schema has none), so a generated client or a validating proxy refuses what the bank refuses.
import { z } from "zod";
import { type EndpointDef, endpoints } from "./endpoints.ts";
import { GatewayErrorSchema } from "./errors.ts";
import { BANK_HEADERS } from "./headers.ts";
import { idempotencyKey } from "./transfers.ts";

type Json = Record<string, unknown>;

/** The media types of every body, request and response: JSON, and XML under both of its names. */
export const XML_MEDIA_TYPES = ["application/xml", "text/xml"] as const;

/** The security schemes, by name: the subscription key on every call, the token on all but one. */
export const SECURITY = { subscriptionKey: "SubscriptionKey", token: "AccessToken" } as const;

function schemaOf(s: z.ZodType, io: "input" | "output"): Json {
  const j = z.toJSONSchema(s, { io, unrepresentable: "any", target: "draft-2020-12" }) as Json;
  delete j.$schema;
  return j;
}

/** The XML shape of a body: its root element, and for an array the element each item repeats. */
function xmlSchema(schema: Json, root: string, item?: string): Json {
  if (schema.type === "array") {
    return {
      ...schema,
      xml: { name: root, wrapped: true },
      items: { ...(schema.items as Json), xml: { name: item ?? "Item" } },
    };
  }
  return { ...schema, xml: { name: root } };
}

function content(schema: Json, root: string, item?: string): Json {
  const xml = xmlSchema(schema, root, item);
  return {
    "application/json": { schema },
    ...Object.fromEntries(XML_MEDIA_TYPES.map((t) => [t, { schema: xml }])),
  };
}

function queryParameters(s: z.ZodType | undefined): Json[] {
  if (!s) return [];
  const j = schemaOf(s, "input");
  const props = (j.properties ?? {}) as Record<string, Json>;
  const req = new Set((j.required ?? []) as string[]);
  const unless = (j["x-required-unless"] ?? {}) as Record<string, string[]>;
  return Object.entries(props).map(([name, schema]) => {
    const { default: byDefault, ...rest } = schema;
    return {
      name,
      in: "query",
      required: req.has(name),
      ...(unless[name] ? { "x-required-unless": unless[name] } : {}),
      schema: {
        // Whole numbers arrive as query text; the document states the number, not the text's pattern.
        ...(rest.type === "integer" ? { ...rest, pattern: undefined } : rest),
        ...(byDefault !== undefined ? { default: byDefault } : {}),
      },
    };
  });
}

const errorBody = schemaOf(GatewayErrorSchema, "output");
const errorResponse = (description: string) => ({ description, content: content(errorBody, "Error") });

export function buildOpenApi(serverUrl?: string): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const [name, e] of Object.entries(endpoints) as [string, EndpointDef][]) {
    const headers: Json[] = [];
    if (e.idempotent) {
      headers.push({
        name: BANK_HEADERS.idempotencyKey,
        in: "header",
        required: false,
        description:
          "A GUID in any spelling (case, braces, hyphens), compared in its canonical form; the same key and body return the first response and act once; the same key with another body is a 400 naming this header. Keys are kept 48 hours.",
        schema: schemaOf(idempotencyKey, "input"),
      });
    }
    const op: Json = {
      operationId: name,
      summary: e.summary,
      tags: [e.tag],
      security: [
        e.needsToken
          ? { [SECURITY.subscriptionKey]: [], [SECURITY.token]: [] }
          : { [SECURITY.subscriptionKey]: [] },
      ],
      parameters: [...headers, ...queryParameters(e.query)],
      responses: {
        "200": e.response
          ? {
              description: "Success (business rejections arrive in the ERROR / Errors arrays)",
              content: content(schemaOf(e.response, "output"), e.xmlRoot, e.xmlItem),
            }
          : {
              description: `The JWT is in the ${BANK_HEADERS.authorization} response header; no body`,
              headers: {
                [BANK_HEADERS.authorization]: {
                  required: true,
                  description: "The access token (a JWT), to send back raw or as `Bearer <jwt>`",
                  schema: { type: "string", minLength: 1 },
                },
              },
            },
        "400": errorResponse("Invalid request: `errors` names each field"),
        "401": errorResponse("The subscription key or token cannot be authenticated"),
        ...(e.needsToken
          ? {}
          : {
              "429": {
                ...errorResponse(
                  `A token was issued to this key too recently; see ${BANK_HEADERS.retryAfter}`,
                ),
                headers: {
                  [BANK_HEADERS.retryAfter]: {
                    required: true,
                    description: "Seconds until the next token may be issued",
                    schema: { type: "integer", minimum: 0 },
                  },
                },
              },
            }),
        "503": errorResponse("Host connection cannot be established"),
      },
    };
    if (e.body) {
      op.requestBody = {
        required: true,
        description: "JSON or XML (any root element name; the one shown is conventional)",
        content: content(schemaOf(e.body, "input"), `${e.xmlRoot.replace(/Response$/, "")}Request`),
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
      description: [
        "Account inquiry, SEN accounts and transfers, wire payments, e-wire summaries, balance webhooks and tokens.",
        "",
        "Canonical and tolerated shapes: the names and codes in this document are canonical. The bank also",
        "tolerates, and never sends: body field names in another letter case (`amount` for `Amount`); `null`,",
        "an empty string or a valueless query parameter for an optional value (all mean not given); codes marked",
        "`x-case-insensitive` in another letter case; a GUID with surrounding blanks. `x-required-unless` on a",
        "query parameter names the parameters that excuse it; `x-decimal-places` bounds an amount's decimals.",
      ].join("\n"),
    },
    servers: [
      { url: serverUrl ?? "/", description: serverUrl ? "This bank" : "The bank serving this document" },
    ],
    components: {
      securitySchemes: {
        [SECURITY.subscriptionKey]: {
          type: "apiKey",
          in: "header",
          name: BANK_HEADERS.subscriptionKey,
          description: "The customer's subscription key, on every call",
        },
        [SECURITY.token]: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description:
            "The JWT from GET /v2/access/token (valid 15 minutes); the raw token without `Bearer ` is tolerated",
        },
      },
    },
    paths,
  };
}
