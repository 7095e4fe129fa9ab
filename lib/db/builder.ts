// Drizzle's query builder for the dashboard's simple, not hot reads and writes: tables and
// columns are named through schema.ts, so a renamed column fails the type check instead of a
// query at run time. The SQL it writes runs through Queryable, the same as hand-written SQL, so
// it works on a pool, on PGlite and inside an open transaction alike. A whole-table select
// returns rows under their column names, the shape SqlRow<table> describes. Queries with locks,
// conditional updates that decide a race, and the hot paths stay hand-written.
import { drizzle } from "drizzle-orm/node-postgres";
import type { Queryable } from "./client.ts";
import * as schema from "./schema.ts";

/** Builds queries only: it holds no connection (run them with `run`). */
export const qb = drizzle.mock({ schema });

/** Runs a built query on `q`. */
export function run<T>(q: Queryable, query: { toSQL(): { sql: string; params: unknown[] } }): Promise<T[]> {
  const { sql, params } = query.toSQL();
  return q.query<T>(sql, params);
}
