import { describe, expect, it } from "vitest";
import {
  signWebhook,
  verifyWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
} from "../../lib/bank-api/webhook-signature.ts";

const SECRET = `whsec_${Buffer.from("a shared secret of thirty-two bytes!").toString("base64")}`;
const body = '{"AccountNumber":"1234567890","AvailableBalance":"000012345","PreviousBalance":"000000000"}';

describe("webhook signatures (Standard Webhooks)", () => {
  const now = 1_800_000_000;
  const signed = (ts = now, b = body, id = "msg_1") => ({
    id,
    timestamp: String(ts),
    signature: signWebhook(SECRET, id, ts, b),
  });

  it("accepts its own signature, also among others", () => {
    expect(verifyWebhook(SECRET, signed(), body, now)).toBe(true);
    const h = signed();
    expect(verifyWebhook(SECRET, { ...h, signature: `v1,bm90IGl0 ${h.signature}` }, body, now)).toBe(true);
  });

  it("refuses another body, id, secret or a missing header", () => {
    expect(verifyWebhook(SECRET, signed(), body.replace("12345", "99999"), now)).toBe(false);
    expect(verifyWebhook(SECRET, { ...signed(), id: "msg_2" }, body, now)).toBe(false);
    expect(verifyWebhook(`whsec_${Buffer.from("another").toString("base64")}`, signed(), body, now)).toBe(
      false,
    );
    expect(verifyWebhook(SECRET, { ...signed(), signature: null }, body, now)).toBe(false);
  });

  it("refuses a timestamp outside the tolerance (a replayed old notification)", () => {
    const old = now - WEBHOOK_TOLERANCE_SECONDS - 1;
    expect(verifyWebhook(SECRET, signed(old), body, now)).toBe(false);
    expect(verifyWebhook(SECRET, signed(now - 10), body, now)).toBe(true);
  });
});
