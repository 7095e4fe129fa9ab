// Every route whose path names something (one of the dashboard's own ids: a draft, series, sweep,
// user, change, payee, token, subscription; or the bank's: an account number, a payment id, a
// webhook id; or a business day), called by an administrator with a value that cannot name
// one, answers 404 naming the parameter, never a 500 and before any query: withRoute checks the
// path against the route's params schema (lib/route-kit/params.ts). Thirty-six dashes passed the older,
// looser id patterns and reached the database, which refused them as a uuid: a 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserRow } from "../../lib/auth/users.ts";
import { invoke, listApiRoutes, openRouteWorld, type RouteWorld, testUser } from "../helpers/routes.ts";

let world: RouteWorld;
let admin: UserRow;

beforeAll(async () => {
  world = await openRouteWorld("malformed-ids", { customer: "Malformed Ids Inc" });
  admin = await testUser(world.db, "admin", "admin@malformed-ids.example");
}, 300_000);
afterAll(async () => {
  await world?.close();
});

/** Path segments that hold one of the dashboard's own ids (and, under payments/ and webhooks/, the bank's). */
const ID_SEGMENTS = new Set(["[id]", "[sweepId]"]);
const BAD = ["-".repeat(36), "not-an-id", "00000000-0000-0000-0000-00000000000g", "'; DROP TABLE users; --"];

/** A well-formed value of each parameter that names nothing, for the segments not under test. */
const GOOD: Record<string, string> = {
  id: "00000000-0000-4000-8000-000000000000",
  sweepId: "00000000-0000-4000-8000-000000000000",
  accountNumber: "9999999999",
  paymentId: "I000000NOSUCH01",
  day: "2026-11-27",
};
/** Values that cannot name an account, a payment or a day. */
const BAD_OF: Record<string, string[]> = {
  accountNumber: ["12a", "1".repeat(21), "'; DROP TABLE users; --", "-1"],
  paymentId: ["x'", "A".repeat(21), "-".repeat(36), "I00 01"],
  day: ["2026-02-30", "26-11-27", "2026-13-01", "today"],
};

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** Routes whose path is read by withRoute; /api/auth/[...nextauth] and /api/bank-events/[token] are not. */
const routes = listApiRoutes().filter(
  (r) => r.path.includes("[") && !r.path.includes("[...") && !r.path.includes("[token]"),
);

async function answers(bad: string, param: string, segments: (s: string) => boolean) {
  const out: { what: string; status: number; fields: string[] }[] = [];
  for (const route of routes.filter((r) => r.path.split("/").some(segments))) {
    const handlers = await route.load();
    for (const method of METHODS) {
      if (typeof handlers[method] !== "function") continue;
      const params: Record<string, string> = {};
      const url = route.path
        .split("/")
        .map((s) => {
          const name = /^\[(\w+)\]$/.exec(s)?.[1];
          if (!name) return s;
          params[name] = segments(s) ? bad : GOOD[name];
          return encodeURIComponent(params[name]);
        })
        .join("/");
      const body = method === "GET" ? undefined : { version: 1 };
      const r = await invoke(route.load as never, method, url, { as: admin, params, body });
      out.push({
        what: `${method} ${route.path} ${r.status} ${r.json?.error?.code}`,
        status: r.status,
        fields: (r.json?.error?.fields ?? []).map((f: { field: string }) => f.field),
      });
    }
  }
  expect(out.length, param).toBeGreaterThan(0);
  return out;
}

describe("a malformed id in a path", () => {
  it("is found in the routes that take one", () => {
    expect(routes.filter((r) => r.path.split("/").some((s) => ID_SEGMENTS.has(s))).length).toBeGreaterThan(
      15,
    );
  });

  it.each(BAD)("is answered 404 naming it by every route and method, never 500: %j", async (bad) => {
    const out = await answers(bad, "id", (s) => ID_SEGMENTS.has(s));
    const wrong = out.filter((a) => a.status !== 404 || !/ not_found$/.test(a.what));
    // A webhook id is the bank's: dashes and letters may form one, so the bank says it has none.
    const unnamed = out.filter(
      (a) => !a.what.includes("/webhooks/") && !a.fields.some((f) => f === "id" || f === "sweepId"),
    );
    expect(wrong.map((a) => a.what)).toEqual([]);
    expect(unnamed.map((a) => a.what)).toEqual([]);
  });
});

describe("a malformed account number, payment id or day in a path", () => {
  for (const [param, values] of Object.entries(BAD_OF))
    it.each(values)(`[${param}] %j is answered 404 naming it by every route and method`, async (bad) => {
      const out = await answers(bad, param, (s) => s === `[${param}]`);
      expect(out.filter((a) => a.status !== 404 || !a.fields.includes(param)).map((a) => a.what)).toEqual([]);
    });
});
