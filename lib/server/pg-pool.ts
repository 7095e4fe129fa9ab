// A node-postgres pool whose idle connections may die (a server restart, a failover, an
// administrator ending sessions) without taking the process down: pg re-emits such errors on
// the pool, and an 'error' event with no listener is thrown.
import pg from "pg";
import { createLogger } from "./log.ts";

export function createPool(url: string, max: number, name: string): pg.Pool {
  const log = createLogger(name, { quiet: process.env.NODE_ENV === "test" });
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on("error", (err) => log.warn("idle database connection lost", { err: err.message }));
  return pool;
}
