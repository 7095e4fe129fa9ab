// GET /api/events - Server-Sent Events for the signed-in user: `balance` when the bank reports an
// account's available balance changed (with the alerts it fired), for the accounts the user may
// see; `inbox` (no data) when what waits for approval may have changed, to users who may act on
// it (lib/inbox/watch.ts), so the page reads its own inbox again. Each event's id is its place in
// the store: a browser that reconnects with Last-Event-ID
// first gets what it missed, then the live events, none twice. The first connection of a process
// makes sure the bank's webhooks point at this dashboard. A stream whose session ends (signed out on
// any instance, or ended by a new password) is closed (lib/live/stream-sessions.ts).

import { hasPermission } from "@/lib/auth/permissions.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { config } from "@/lib/config.ts";
import { getInboxWatch } from "@/lib/inbox/watch.ts";
import { getLiveHub, type LiveEvent, REPLAY_LIMIT } from "@/lib/live/hub.ts";
import { ensureBankWebhooksOnce, liveEnabled } from "@/lib/live/receiver.ts";
import { watchStreamSession } from "@/lib/live/stream-sessions.ts";
import { mayReceive } from "@/lib/live/visibility.ts";
import { errorBody } from "@/lib/route-kit/errors.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

const HEARTBEAT_MS = 25_000;

export const dynamic = "force-dynamic";

function lastEventId(req: Request): number | null {
  const raw = req.headers.get("last-event-id") ?? new URL(req.url).searchParams.get("lastEventId");
  return raw && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}

/**
 * Streams open per user on this instance. Each holds a subscription and a timer until its
 * browser goes, so one user (a runaway script, a stolen session) cannot open them without end.
 */
const openStreams = new Map<string, number>();

export const GET = withRoute(
  async ({ req, user, session }) => {
    if (!liveEnabled()) return new Response(null, { status: 204 });
    const bank = await getBankClient();
    // The first connection waits for the set-up, so that "live" means the bank will report.
    await ensureBankWebhooksOnce(bank).catch(() => {});
    const hub = await getLiveHub();
    const inbox =
      hasPermission(user.role, "wires.release") || hasPermission(user.role, "wires.act")
        ? await getInboxWatch()
        : null;
    const resumeFrom = lastEventId(req);
    // Checked and counted at once (no wait between), from here to the stream's end: its browser
    // gone, or the stream cancelled.
    const limit = config().liveStreamsPerUser;
    if ((openStreams.get(user.id) ?? 0) >= limit)
      return Response.json(
        errorBody(
          "too_many_streams",
          `At most ${limit} live connections per user are open at once. Close a tab and try again.`,
        ),
        { status: 429, headers: { "Retry-After": "10", "Cache-Control": "no-store" } },
      );
    openStreams.set(user.id, (openStreams.get(user.id) ?? 0) + 1);
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      const left = (openStreams.get(user.id) ?? 1) - 1;
      if (left > 0) openStreams.set(user.id, left);
      else openStreams.delete(user.id);
    };
    const encoder = new TextEncoder();
    let stop = () => {};
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const send = (text: string) => {
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            stop();
          }
        };
        let sentThrough = resumeFrom ?? 0;
        const sent = new Set<number>();
        // Events go out one after another: the visibility check may wait on the bank.
        let queue = Promise.resolve();
        const deliver = async (e: LiveEvent) => {
          if (sent.has(e.seq) || (resumeFrom !== null && e.seq <= resumeFrom)) return;
          if (!(await mayReceive(user.role, e.accountNumber, bank).catch(() => false))) return;
          sent.add(e.seq);
          if (sent.size > 5000) sent.delete(sent.values().next().value as number);
          sentThrough = Math.max(sentThrough, e.seq);
          const alerts = e.alerts.filter((a) => a.notifyUsers);
          send(
            `id: ${sentThrough}\nevent: balance\ndata: ${JSON.stringify({
              seq: e.seq,
              accountNumber: e.accountNumber,
              availableCents: e.availableCents,
              previousCents: e.previousCents,
              at: e.at,
              alerts,
            })}\n\n`,
          );
        };
        const forward = (e: LiveEvent) => {
          queue = queue.then(() => deliver(e)).catch(() => {});
        };
        send("retry: 2000\n: connected\n\n");
        // Subscribed before the replay is read, so nothing falls between the two.
        const off = hub.subscribe(forward);
        if (resumeFrom !== null) {
          queue = queue.then(async () => {
            const missed = await hub.since(resumeFrom);
            if (missed.length > REPLAY_LIMIT) {
              // Too far behind to replay: the browser re-reads everything instead.
              const last = await hub.latestSeq();
              sentThrough = last;
              send(`id: ${last}\nevent: reset\ndata: {}\n\n`);
              return;
            }
            for (const e of missed) await deliver(e);
          });
        }
        // Not an event of the store: no id, so a resume position is never moved by it.
        const offInbox = inbox?.subscribe(() => send("event: inbox\ndata: {}\n\n")) ?? (() => {});
        const beat = setInterval(() => send(": keep-alive\n\n"), HEARTBEAT_MS);
        // Signed out meanwhile (on any instance): the stream closes within the check interval.
        const unwatch = watchStreamSession(session.sid, session.signedInAt, () => stop());
        stop = () => {
          release();
          off();
          offInbox();
          unwatch();
          clearInterval(beat);
          try {
            controller.close();
          } catch {}
        };
        req.signal.addEventListener("abort", () => stop());
        if (req.signal.aborted) stop();
      },
      cancel() {
        stop();
      },
    });
    return new Response(stream, {
      headers: {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-store, no-transform",
        Connection: "keep-alive",
        "X-Accel-Buffering": "no",
      },
    });
  },
  { permission: "accounts.read" },
);
