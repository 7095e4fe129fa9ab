// GET /readyz - readiness: 200 when the database answers and holds every migration, 503 while it
// is still opening, behind the code, unreachable, or once a stop has begun (a load balancer takes
// the instance out before it stops taking requests).
import { config } from "@/lib/config.ts";
import { getDashboardDb } from "@/lib/db/client.ts";
import { isDraining } from "@/lib/operations/lifecycle.ts";
import { migrationsApplied } from "@/lib/server/database.ts";

export const dynamic = "force-dynamic";

/** A probe waits this long for the database's first opening (PGlite takes seconds) before it says 503. */
const OPEN_WAIT_MS = 2000;

const answer = (status: number, body: Record<string, string>) =>
  Response.json(body, {
    status,
    headers: { "Cache-Control": "no-store", ...(status === 503 ? { "Retry-After": "1" } : {}) },
  });

export async function GET(): Promise<Response> {
  const unready = (reason: string) => answer(503, { status: "unavailable", reason });
  if (isDraining()) return unready("stopping");
  try {
    let timer: NodeJS.Timeout | undefined;
    const db = await Promise.race([
      getDashboardDb(),
      new Promise<null>((r) => {
        timer = setTimeout(() => r(null), OPEN_WAIT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    if (!db) return unready("database opening");
    if (!(await migrationsApplied((t) => db.query(t), config().migrationsDir)))
      return unready("migrations not applied");
  } catch {
    return unready("database unavailable");
  }
  return isDraining() ? unready("stopping") : answer(200, { status: "ok" });
}
