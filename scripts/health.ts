// The one readiness probe of a program `npm start` or the simulator starts: a 200 from its health
// path and, for a dashboard started with a name of its own (START_INSTANCE), that name in the
// answer, so another server holding the port is never taken for it.
import { randomBytes } from "node:crypto";
import * as z from "zod/mini";
import { HealthResponse } from "../lib/dashboard-api/health.ts";

/** A new name for one start of a dashboard (a restart on the same port gets another). */
export const instanceName = (): string => randomBytes(12).toString("base64url");

/** Whether `url` answers 200 and, when `instance` is given, names that instance. Throws when nothing answers. */
export async function answersHealthy(url: string, instance?: string, timeoutMs = 30_000): Promise<boolean> {
  const r = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (r.status !== 200) return false;
  if (instance === undefined) return true;
  const body = z.safeParse(HealthResponse, await r.json().catch(() => null));
  return body.success && body.data.instance === instance;
}
