// GET /metrics - Prometheus metrics, for a scraper holding METRICS_TOKEN as its bearer token.
// Unset, the route does not exist (404); a missing or wrong token is a 401.
import { config } from "@/lib/config.ts";
import { dashboardMetrics } from "@/lib/operations/metrics.ts";
import { bearerMatches, scrape } from "@/lib/server/metrics.ts";

export const dynamic = "force-dynamic";

export async function GET(req: Request): Promise<Response> {
  const token = config().metricsToken;
  if (!token) return new Response("Not Found", { status: 404 });
  if (!bearerMatches(req.headers.get("authorization"), token))
    return Response.json(
      { error: { code: "unauthenticated", message: "Metrics need Authorization: Bearer <METRICS_TOKEN>." } },
      { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store" } },
    );
  const { contentType, text } = await scrape(dashboardMetrics().registry);
  return new Response(text, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
}
