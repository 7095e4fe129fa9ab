// POST /v2/account/transfersen - an immediate transfer between two SEN accounts
import { createHash, randomBytes } from "node:crypto";
import { endpoints } from "../../lib/bank-api/endpoints.ts";
import { type BusinessErrorCode, shortError } from "../../lib/bank-api/errors.ts";
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

/** Reads and checks the Idempotency-Key header (400 when malformed). */
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

type TransferResult =
  | { status: "ok" | "replay"; transferId: string; replay?: boolean }
  | { status: "rejected"; code: BusinessErrorCode; field: string; replay?: boolean }
  | { status: "key_conflict" };

export function registerTransferRoutes(router: Router, bank: Bank) {
  router.v2(endpoints.transferSen, async ({ ctx, customer, body }): Promise<TransferSenResponse> => {
    const key = readIdempotencyKey(ctx.header("idempotency-key"));
    const now = bank.clock.now();
    const transferId = `SEN${randomBytes(6).toString("hex").toUpperCase()}`;
    const rows = await bank.db.prepared<{ r: TransferResult }>(
      "sen_transfer",
      "SELECT sen_transfer($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) AS r",
      [
        customer.id,
        body.AccountNumberFrom,
        body.AccountNumberTo,
        body.Amount,
        key,
        key ? requestHash(body) : null,
        now,
        bank.clock.businessDate(now),
        descriptionLines(`SEN to ${body.AccountNumberTo}`, body, "From"),
        descriptionLines(`SEN from ${body.AccountNumberFrom}`, body, "To"),
        body.SerialNumber1 ?? "",
        body.SerialNumber2 ?? "",
        transferId,
      ],
    );
    const r = rows[0].r;
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
