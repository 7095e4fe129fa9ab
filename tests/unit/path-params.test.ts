// The path parameters' schemas (lib/route-kit/params.ts) that withRoute checks before a handler: a
// dashboard id by the one id pattern, an account number and a payment id by the bank's field
// rules, a day only when it is a real date. What they refuse is answered 404 by every route.
import { describe, expect, it } from "vitest";
import {
  AccountParams,
  DeliveryParams,
  IdParams,
  PaymentParams,
  SweepParams,
  WebhookParams,
} from "../../lib/route-kit/params.ts";

const ID = "0b8f5a8e-3c1d-4e2f-9a7b-1c2d3e4f5a6b";
/** The parameters a parse refused, each once (one value may break several rules). */
const refused = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  r.success ? [] : [...new Set((r.error?.issues ?? []).map((i) => i.path.join(".")))];

describe("path parameters", () => {
  it("take a dashboard id and nothing looser", () => {
    expect(IdParams.parse({ id: ID })).toEqual({ id: ID });
    expect(SweepParams.parse({ sweepId: ID })).toEqual({ sweepId: ID });
    for (const bad of ["-".repeat(36), "not-an-id", `${ID.slice(0, -1)}g`, "", `${ID} `])
      expect(refused(IdParams.safeParse({ id: bad })), bad).toEqual(["id"]);
    expect(refused(SweepParams.safeParse({ id: ID })), "the name is the segment's").toEqual(["sweepId"]);
  });

  it("take an account number of the bank: 1 to 20 digits", () => {
    expect(AccountParams.parse({ accountNumber: "5304554908" })).toEqual({ accountNumber: "5304554908" });
    expect(AccountParams.safeParse({ accountNumber: "1".repeat(20) }).success).toBe(true);
    for (const bad of ["", "1".repeat(21), "12a", "-1", "12\u200b3"])
      expect(refused(AccountParams.safeParse({ accountNumber: bad })), bad).toEqual(["accountNumber"]);
  });

  it("take a payment id of the bank: 1 to 20 letters and digits", () => {
    expect(PaymentParams.safeParse({ paymentId: "I000000NOSUCH01" }).success).toBe(true);
    for (const bad of ["", "A".repeat(21), "x'", "I00 01", "-".repeat(10)])
      expect(refused(PaymentParams.safeParse({ paymentId: bad })), bad).toEqual(["paymentId"]);
  });

  it("take a webhook id of the bank: at most 64 letters, digits, _ and -", () => {
    expect(WebhookParams.safeParse({ id: "hook_1-a" }).success).toBe(true);
    for (const bad of ["", "a".repeat(65), "a b", "a/b"])
      expect(refused(WebhookParams.safeParse({ id: bad })), bad).toEqual(["id"]);
  });

  it("take a day that is a real date", () => {
    expect(DeliveryParams.parse({ id: ID, day: "2024-02-29" })).toEqual({ id: ID, day: "2024-02-29" });
    for (const bad of ["2026-02-29", "2026-13-01", "26-11-27", "2026-11-27T00:00:00Z", "today"])
      expect(refused(DeliveryParams.safeParse({ id: ID, day: bad })), bad).toEqual(["day"]);
    expect(refused(DeliveryParams.safeParse({ id: "x", day: "x" }))).toEqual(["id", "day"]);
  });
});
