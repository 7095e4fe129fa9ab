// GET /livez - liveness: the process answers. Nothing else is asked, so that a slow database
// never gets a healthy process restarted (readiness, /readyz, is the check that takes traffic away).
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
