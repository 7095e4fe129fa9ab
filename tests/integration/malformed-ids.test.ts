// Every route whose path names one of the dashboard's own ids (a draft, series, sweep, user,
// change, payee, webhook, token, subscription), called by an administrator with an id that is not
// one, answers 400 or 404 naming it, never a 500: an id is checked by the one pattern
// (lib/dashboard-api/ids.ts) before any query. Thirty-six dashes passed the older, looser patterns
// and reached the database, which refused them as a uuid: a 500.
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

/** Path segments that hold one of the dashboard's own ids (not the bank's payment ids or account numbers). */
const ID_SEGMENTS = new Set(["[id]", "[sweepId]"]);
const BAD = ["-".repeat(36), "not-an-id", "00000000-0000-0000-0000-00000000000g", "'; DROP TABLE users; --"];

describe("a malformed id in a path", () => {
  const routes = listApiRoutes().filter((r) => r.path.split("/").some((s) => ID_SEGMENTS.has(s)));

  it("is found in the routes that take one", () => {
    expect(routes.length).toBeGreaterThan(15);
  });

  it.each(BAD)("is answered 400 or 404 by every route and method, never 500: %j", async (bad) => {
    const answers: string[] = [];
    for (const route of routes) {
      const handlers = await route.load();
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
        if (typeof handlers[method] !== "function") continue;
        const params: Record<string, string> = { id: bad, sweepId: bad, day: "2026-11-27" };
        const url = route.path
          .split("/")
          .map((s) => (ID_SEGMENTS.has(s) ? encodeURIComponent(bad) : s === "[day]" ? params.day : s))
          .join("/");
        const body = method === "GET" ? undefined : { version: 1 };
        const r = await invoke(route.load as never, method, url, { as: admin, params, body });
        answers.push(`${method} ${route.path} ${r.status}`);
      }
    }
    expect(answers.filter((a) => !/ (400|404)$/.test(a))).toEqual([]);
  });
});
