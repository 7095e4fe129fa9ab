// POST /v2/account/transfersen - an immediate transfer between two SEN accounts
import { createHash, randomBytes } from "node:crypto";
import { endpoints } from "../../lib/bank-api/endpoints.ts";
import { shortError } from "../../lib/bank-api/errors.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import { FROM_DESCRIPTION_FIELDS, TO_DESCRIPTION_FIELDS } from "../../lib/bank-api/rules.ts";
import { TRANSFER_OUTCOMES, type TransferOutcome } from "../../lib/bank-api/transfer-outcomes.ts";
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
  if (!r.success) throw badField(BANK_HEADERS.idempotencyKey, r.error.issues[0].message);
  return r.data;
}

/** TRANDESC, TRANDESCS, TRANDESC3..11 of one side: its first line, then the caller's lines 2-7, then `tail`. */
function descriptionLines(
  first: string,
  b: TransferSenRequest,
  side: "From" | "To",
  tail: string[] = [],
): string[] {
  const lines = [first];
  for (const f of side === "From" ? FROM_DESCRIPTION_FIELDS : TO_DESCRIPTION_FIELDS) lines.push(b[f] ?? "");
  lines.push(...tail);
  while (lines.length < 11) lines.push("");
  return lines;
}

export function registerTransferRoutes(router: Router, bank: Bank) {
  router.v2(endpoints.transferSen, async ({ ctx, customer, body }): Promise<TransferSenResponse> => {
    const key = readIdempotencyKey(ctx.header(BANK_HEADERS.idempotencyKey));
    const now = bank.clock.now();
    const transferId = `SEN${randomBytes(6).toString("hex").toUpperCase()}`;
    const r = await bank.transfers.execute({
      customer: customer.id,
      from: body.AccountNumberFrom,
      to: body.AccountNumberTo,
      cents: body.Amount,
      key,
      hash: key ? requestHash(body) : null,
      now: now.toISOString(),
      date: bank.clock.businessDate(now),
      // The serial numbers are the caller's own references: the debit item shows them as
      // TRANDESC8 and TRANDESC9 (docs/api-notes.md).
      fromDesc: descriptionLines(`SEN to ${body.AccountNumberTo}`, body, "From", [
        body.SerialNumber1 ?? "",
        body.SerialNumber2 ?? "",
      ]),
      toDesc: descriptionLines(`SEN from ${body.AccountNumberFrom}`, body, "To"),
      serial1: body.SerialNumber1 ?? "",
      serial2: body.SerialNumber2 ?? "",
      id: transferId,
    });
    bank.metrics.transfer(r.code);
    const SEQUENCE = body.SequenceNumber ?? 0;
    const outcome: TransferOutcome = TRANSFER_OUTCOMES[r.code];
    if (outcome.kind === "key_conflict") {
      throw badRequest(
        [{ field: outcome.field, message: outcome.message }],
        `${BANK_HEADERS.idempotencyKey} reuse with a different request`,
      );
    }
    if (outcome.kind === "rejected")
      return { SEQUENCE, MESSAGE: [], ERROR: [shortError(outcome.error, outcome.field)] };
    return {
      SEQUENCE,
      MESSAGE: [{ MESSAGEID: "I0001", MESSAGETYPE: "I", MESSAGETEXT: `Transfer ${r.transferId} completed` }],
      ERROR: [],
    };
  });
}
