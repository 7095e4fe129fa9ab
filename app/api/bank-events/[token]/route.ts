// POST /api/bank-events/[token] - the bank's balance notifications (live balances). Not a browser
// route: no session; the unguessable path and the Standard Webhooks signature are the checks.
// 204 once stored (also for a repeat, stored once by webhook-id), 404 for a wrong path, 401 for a
// bad signature or a stale timestamp, 400 for a body that is not a balance notification (or holds
// more than 64 KiB, refused before the rest is read); a refused
// notification is stored nowhere.

import { verifyWebhook } from "@/lib/bank-api/webhook-signature.ts";
import { BalanceNotificationSchema, WEBHOOK_HEADERS } from "@/lib/bank-api/webhooks.ts";
import { config } from "@/lib/config.ts";
import { getLiveHub } from "@/lib/live/hub.ts";
import { isReceiverToken } from "@/lib/live/receiver.ts";
import { errorBody } from "@/lib/route-kit/errors.ts";
import { readBodyText } from "@/lib/route-kit/route.ts";
import { refuseCrossSite } from "@/lib/route-kit/same-origin.ts";
import { sweepOnBalance } from "@/lib/schedules/ticker.ts";

const answer = (status: number, message?: string) =>
  message
    ? Response.json(errorBody(status === 400 ? "invalid" : "refused", message), { status })
    : new Response(null, { status });

export async function POST(req: Request, ctx: { params: Promise<{ token: string }> }): Promise<Response> {
  // The bank sends neither Origin nor Sec-Fetch-Site; a browser posting from another site does.
  const crossSite = refuseCrossSite(req);
  if (crossSite) return crossSite;
  const { token } = await ctx.params;
  const secret = config().bankWebhookSecret;
  if (!secret || !isReceiverToken(token)) return answer(404);
  const body = await readBodyText(req);
  if (body === null) return answer(400, "The body is too large.");
  const headers = {
    id: req.headers.get(WEBHOOK_HEADERS.id),
    timestamp: req.headers.get(WEBHOOK_HEADERS.timestamp),
    signature: req.headers.get(WEBHOOK_HEADERS.signature),
  };
  if (!verifyWebhook(secret, headers, body)) return answer(401, "The signature does not match.");
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return answer(400, "The body is not JSON.");
  }
  const n = BalanceNotificationSchema.safeParse(parsed);
  if (!n.success) return answer(400, "The body is not a balance notification.");
  const availableCents = Number(n.data.AvailableBalance);
  const previousCents = Number(n.data.PreviousBalance);
  if (!Number.isSafeInteger(availableCents) || !Number.isSafeInteger(previousCents))
    return answer(400, "The balances are out of range.");
  if ((headers.id as string).length > 200) return answer(400, "The webhook-id is too long.");
  const hub = await getLiveHub();
  // Stored before the 204: a failure here is a 5xx, and the bank delivers again.
  const stored = await hub.record({
    webhookId: headers.id as string,
    accountNumber: n.data.AccountNumber,
    availableCents,
    previousCents,
  });
  // A first delivery that crosses a sweep's band runs the sweep, after the answer (the bank waits for no move).
  if (stored)
    void sweepOnBalance({
      accountNumber: n.data.AccountNumber,
      availableCents,
      previousCents,
      crossingId: headers.id as string,
    });
  return answer(204);
}
