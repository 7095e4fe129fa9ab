// GET /api/events - Server-Sent Events for the signed-in user: `balance` when the bank reports an
// account's available balance changed (the browser then re-reads what it shows). The first
// connection of a process makes sure the bank's webhooks point at this dashboard.
import { withRoute } from "@/lib/api/route";
import { getBankClient } from "@/lib/bank-client";
import { onBalance } from "@/lib/live/hub";
import { ensureBankWebhooksOnce, liveEnabled } from "@/lib/live/receiver";

const HEARTBEAT_MS = 25_000;

export const dynamic = "force-dynamic";

export const GET = withRoute(
  async ({ req }) => {
    if (!liveEnabled()) return new Response(null, { status: 204 });
    // The first connection waits for the set-up, so that "live" means the bank will report.
    await ensureBankWebhooksOnce(await getBankClient()).catch(() => {});
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
        send("retry: 5000\n: connected\n\n");
        const off = onBalance((e) =>
          send(
            `event: balance\ndata: ${JSON.stringify({ accountNumber: e.accountNumber, availableCents: e.availableCents })}\n\n`,
          ),
        );
        const beat = setInterval(() => send(": keep-alive\n\n"), HEARTBEAT_MS);
        stop = () => {
          off();
          clearInterval(beat);
          try {
            controller.close();
          } catch {}
        };
        req.signal.addEventListener("abort", () => stop());
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
