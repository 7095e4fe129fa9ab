// The dashboard's receiver of the bank's balance notifications (live balances): the secret path,
// the signature and the body are all checked before a notification reaches the browsers, and a
// repeat of one notification (the bank retries) is passed on once.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { signWebhook } from "../../lib/bank-api/webhook-signature.ts";
import { type BalanceEvent, onBalance } from "../../lib/live/hub.ts";
import { receiverToken, receiverUrl } from "../../lib/live/receiver.ts";

// The guard package that keeps these modules out of browser bundles, as in the other route tests.
vi.mock("server-only", () => ({}));

const SECRET = `whsec_${Buffer.from("dashboard receiver test secret 32b").toString("base64")}`;
const saved = { ...process.env };

beforeAll(() => {
  process.env.BANK_WEBHOOK_SECRET = SECRET;
  process.env.NEXTAUTH_SECRET = "receiver-test-nextauth-secret-0123456789";
  process.env.NEXTAUTH_URL = "http://127.0.0.1:3999";
});
afterAll(() => {
  process.env = { ...saved };
});

const body = (available: string) =>
  JSON.stringify({ AccountNumber: "5304554908", AvailableBalance: available, PreviousBalance: "000001000" });

async function post(token: string, text: string, opts: { id?: string; ts?: number; secret?: string } = {}) {
  const route = await import("../../app/api/bank-events/[token]/route.ts");
  const id = opts.id ?? `msg_${Math.random().toString(36).slice(2)}`;
  const ts = opts.ts ?? Math.floor(Date.now() / 1000);
  const req = new Request(`http://127.0.0.1:3999/api/bank-events/${token}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(ts),
      "webhook-signature": signWebhook(opts.secret ?? SECRET, id, ts, text),
    },
    body: text,
  });
  return route.POST(req, { params: Promise.resolve({ token }) });
}

describe("live balance receiver", () => {
  it("is addressed by NEXTAUTH_URL and a token from NEXTAUTH_SECRET", () => {
    expect(receiverUrl()).toBe(`http://127.0.0.1:3999/api/bank-events/${receiverToken()}`);
    expect(receiverToken()).toMatch(/^[\w-]{32}$/);
  });

  it("passes a signed notification on once, refusing a wrong path, signature, age or body", async () => {
    const got: BalanceEvent[] = [];
    const off = onBalance((e) => got.push(e));
    try {
      expect((await post("not-the-token", body("000002000"))).status).toBe(404);
      expect((await post(receiverToken(), body("000002000"), { secret: "whsec_b3RoZXI=" })).status).toBe(401);
      const old = Math.floor(Date.now() / 1000) - 3600;
      expect((await post(receiverToken(), body("000002000"), { ts: old })).status).toBe(401);
      expect((await post(receiverToken(), '{"AccountNumber":"5304554908"}')).status).toBe(400);
      expect(got).toEqual([]);

      expect((await post(receiverToken(), body("000123456"), { id: "msg_once" })).status).toBe(204);
      expect((await post(receiverToken(), body("000123456"), { id: "msg_once" })).status).toBe(204);
      expect(got).toEqual([
        { id: "msg_once", accountNumber: "5304554908", availableCents: 123456, previousCents: 1000 },
      ]);
    } finally {
      off();
    }
  });
});
