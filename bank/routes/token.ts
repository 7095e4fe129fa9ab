// GET /v2/access/token - the JWT in the Authorization response header, no body (docs/decisions.md)
import { endpoints } from "../../lib/bank-api/endpoints.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import type { Bank } from "../context.ts";
import { type Router, reply } from "../http/router.ts";

export function registerTokenRoutes(router: Router, bank: Bank) {
  router.v2(endpoints.token, async ({ customer }) => {
    const jwt = await bank.tokens.issue(customer);
    return reply(undefined, {
      headers: {
        [BANK_HEADERS.authorization]: jwt,
        "cache-control": "no-store",
        "access-control-expose-headers": BANK_HEADERS.authorization,
      },
    });
  });
}
