// POST /v2/account/transfersen - an immediate transfer between two SEN accounts
import { createHash, randomBytes } from "node:crypto";
import { endpoints } from "../../lib/bank-api/endpoints.ts";
import { shortError } from "../../lib/bank-api/errors.ts";
import type { TransferSenRequest, TransferSenResponse } from "../../lib/bank-api/transfers.ts";
import { idempotencyKey } from "../../lib/bank-api/transfers.ts";
import type { Bank } from "../context.ts";
import { badField, badRequest } from "../http/errors.ts";
import type { Router } from "../http/router.ts";

/** Canonical text of a validated request: the same request in JSON or XML, any name case, hashes alike. */
export function requestHash(value: unknown): string {
  const canonical = JSON.stringify(value, (_k, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
  return createHash("sha256").update(canonical).digest("hex");
}

/** Reads the Idempotency-Key header as its canonical GUID (400 naming it when it is not a GUID). */
export function readIdempotencyKey(header: string | undefined): string | null {
  if (header === undefined || header === "") return null;
  const r = idempotencyKey.safeParse(header);
  if (!r.success) throw badField("Idempotency-Key", r.error.issues[0].message);
  return r.data;
}

function descriptionLines(first: string, b: TransferSenRequest, side: "From" | "To"): string[] {
  const lines = [first];
  for (let i = 2; i <= 7; i++)
    lines.push((b[`Account${side}Description${i}` as keyof TransferSenRequest] as string | undefined) ?? "");
  while (lines.length < 11) lines.push("");
  return lines;
}

export function registerTransferRoutes(router: Router, bank: Bank) {
  router.v2(endpoints.transferSen, async ({ ctx, customer, body }): Promise<TransferSenResponse> => {
    const key = readIdempotencyKey(ctx.header("idempotency-key"));
    const now = bank.clock.now();
    const transferId = `SEN${randomBytes(6).toString("hex").toUpperCase()}`;
    const r = await bank.transfers.execute({
      customerId: customer.id,
      from: body.AccountNumberFrom,
      to: body.AccountNumberTo,
      cents: body.Amount,
      key,
      hash: key ? requestHash(body) : null,
      now,
      date: bank.clock.businessDate(now),
      fromDesc: descriptionLines(`SEN to ${body.AccountNumberTo}`, body, "From"),
      toDesc: descriptionLines(`SEN from ${body.AccountNumberFrom}`, body, "To"),
      serial1: body.SerialNumber1 ?? "",
      serial2: body.SerialNumber2 ?? "",
      transferId,
    });
    const SEQUENCE = body.SequenceNumber ?? 0;
    if (r.status === "key_conflict") {
      throw badRequest(
        [{ field: "Idempotency-Key", message: "was already used with a different request body" }],
        "Idempotency-Key reuse with a different request",
      );
    }
    if (r.status === "rejected") return { SEQUENCE, MESSAGE: [], ERROR: [shortError(r.code, r.field)] };
    return {
      SEQUENCE,
      MESSAGE: [{ MESSAGEID: "I0001", MESSAGETYPE: "I", MESSAGETEXT: `Transfer ${r.transferId} completed` }],
      ERROR: [],
    };
  });
}
