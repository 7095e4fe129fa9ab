// The /sandbox simulation API (bank/README.md, "The sandbox API"): JSON in dollars, every call behind X-Sandbox-Key,
// absent altogether when BANK_SANDBOX=off.
import { timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { parseQuery, parseRequest } from "../../lib/bank-api/request.ts";
import type { Bank } from "../context.ts";
import { badRequest, HttpError } from "../http/errors.ts";
import type { RequestContext, Router } from "../http/router.ts";
import { reply } from "../http/router.ts";

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function sandboxRoute<S extends z.ZodType>(
  router: Router,
  bank: Bank,
  method: "GET" | "POST",
  path: string,
  schema: S,
  handler: (input: z.output<S>, ctx: RequestContext) => Promise<unknown>,
) {
  if (!bank.config.sandbox) return;
  router.add(method, path, async (ctx) => {
    const key = ctx.header(BANK_HEADERS.sandboxKey);
    if (!key || !sameSecret(key, bank.config.sandboxKey))
      throw new HttpError(401, `Missing or invalid ${BANK_HEADERS.sandboxKey}`);
    const parsed =
      method === "GET" ? parseQuery(schema, ctx.url.searchParams) : parseRequest(schema, ctx.rawBody ?? {});
    if (!parsed.ok) throw badRequest(parsed.errors);
    const out = await handler(parsed.value, ctx);
    ctx.wantsXml = false;
    return reply(out, { status: method === "POST" ? 201 : 200 });
  });
}
