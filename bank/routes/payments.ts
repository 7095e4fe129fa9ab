// Wire payments: send (POST), list (GET), approve/cancel/return (PUT), and the backup calls that
// log requests while the wire system is down (bank/payments/README.md).
import { endpoints } from "../../lib/bank-api/endpoints.ts";
import { BANK_HEADERS } from "../../lib/bank-api/headers.ts";
import type { InitiatePaymentRequest, PaymentResponse } from "../../lib/bank-api/payments.ts";
import type { Bank } from "../context.ts";
import { badField, badRequest, unavailable } from "../http/errors.ts";
import { type Router, reply } from "../http/router.ts";
import { applyPaymentAction } from "../payments/actions.ts";
import { logInitiatePayment, logPaymentAction } from "../payments/backup.ts";
import { listPaymentsJson } from "../payments/list.ts";
import { type InitiateOutcome, initiateWire } from "../payments/outgoing.ts";
import { wireSystemStatus } from "../payments/wire-system.ts";
import { readIdempotencyKey, requestHash } from "./transfers.ts";

const WIRE_SYSTEM_DOWN =
  "The wire system is unavailable (outage or maintenance); use /v2/payment/backup to log the request";

export function registerPaymentRoutes(router: Router, bank: Bank) {
  const ensureWireSystemUp = async () => {
    if ((await wireSystemStatus(bank.db)) === "down") throw unavailable(WIRE_SYSTEM_DOWN);
  };

  const answer = (out: InitiateOutcome): PaymentResponse => {
    if (out.kind === "key_conflict") {
      throw badRequest(
        [{ field: BANK_HEADERS.idempotencyKey, message: "was already used with a different request body" }],
        `${BANK_HEADERS.idempotencyKey} reuse with a different request`,
      );
    }
    return out.response;
  };

  const send = async (customerId: number, body: InitiatePaymentRequest, key: string | null) => {
    const out = await initiateWire(bank.db, bank.clock, {
      customerId,
      body,
      idempotencyKey: key,
      requestHash: key ? requestHash(body) : null,
    });
    const response = answer(out);
    if (response.payment_status) bank.events.emit("balance-changed");
    return response;
  };

  // POST /v2/payment - send an outgoing wire: funds held at once, In-Progress until Fedwire settles it
  router.v2(endpoints.initiatePayment, async ({ ctx, customer, body }): Promise<PaymentResponse> => {
    const key = readIdempotencyKey(ctx.header(BANK_HEADERS.idempotencyKey));
    await ensureWireSystemUp();
    return send(customer.id, body, key);
  });

  // GET /v2/payment - an account's wires by payment_id or date range, paged
  router.v2(endpoints.listPayments, async ({ ctx, customer, query }) => {
    const owned = await bank.db.query("SELECT 1 FROM accounts WHERE number = $1 AND customer_id = $2", [
      query.account_number,
      customer.id,
    ]);
    // The response is a bare array with no error items: an account that is not the caller's is refused as a 400.
    if (!owned.length) throw badField("account_number", "is not an account of this subscription");
    const json = await listPaymentsJson(bank.db, bank.clock, query);
    if (ctx.wantsXml) return JSON.parse(json);
    return reply(undefined, { raw: { contentType: "application/json; charset=utf-8", text: json } });
  });

  // PUT /v2/payment - approve, cancel or return an incoming wire in Pre-Approval
  router.v2(endpoints.paymentAction, async ({ customer, query }): Promise<PaymentResponse> => {
    await ensureWireSystemUp();
    return bank.db.tx((q) => applyPaymentAction(q, bank.clock, customer.id, query));
  });

  // PUT /v2/payment/backup - log a payment action while the wire system is down (applied at once when it is up)
  router.v2(endpoints.paymentActionBackup, async ({ customer, query }): Promise<PaymentResponse> => {
    if ((await wireSystemStatus(bank.db)) === "up")
      return bank.db.tx((q) => applyPaymentAction(q, bank.clock, customer.id, query));
    return bank.db.tx((q) => logPaymentAction(q, bank.clock, customer.id, query));
  });

  // POST /v2/payment/backup - log an outgoing wire while the wire system is down (sent at once when it is up)
  // Idempotency-Key as on POST /v2/payment, in the same key space: logged or sent, one key is one wire.
  router.v2(endpoints.initiatePaymentBackup, async ({ ctx, customer, body }): Promise<PaymentResponse> => {
    const key = readIdempotencyKey(ctx.header(BANK_HEADERS.idempotencyKey));
    if ((await wireSystemStatus(bank.db)) === "up") return send(customer.id, body, key);
    return answer(
      await logInitiatePayment(bank, customer.id, body, key ? { key, hash: requestHash(body) } : null),
    );
  });
}
