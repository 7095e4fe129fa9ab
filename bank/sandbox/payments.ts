// Sandbox calls for wires: an incoming wire, a wire-system outage and its end, settlement now.
import { z } from "zod";
import { isAbaRoutingNumber, required, str } from "../../lib/bank-api/fields.ts";
import { dollarsToCents } from "../../lib/bank-api/money.ts";
import { noControlCharacters } from "../../lib/bank-api/payments.ts";
import type { Bank } from "../context.ts";
import { badField } from "../http/errors.ts";
import type { Router } from "../http/router.ts";
import { createIncomingWire } from "../payments/actions.ts";
import { pendingBackupEntries, replayBackupLog } from "../payments/backup.ts";
import { settleDueWires } from "../payments/settlement.ts";
import { setWireSystemStatus, wireSystemStatus } from "../payments/wire-system.ts";
import { sandboxRoute } from "./guard.ts";

const text = (max: number) => str(max).refine(noControlCharacters, "must not contain control characters");

const incomingWireInput = z.object({
  accountNumber: required(20).refine(noControlCharacters, "must not contain control characters"),
  amount: z.union([z.number(), z.string()]).transform((v, ctx) => {
    const cents = dollarsToCents(v);
    if (cents === null || cents <= 0) {
      ctx.addIssue({
        code: "custom",
        message: "must be a positive amount in dollars with at most two decimals",
      });
      return z.NEVER;
    }
    return cents;
  }),
  originatorName: text(35).optional(),
  originatorAccountNumber: text(29).optional(),
  originatorAddress: text(35).optional(),
  originatorBankRoutingId: str(9)
    .refine(isAbaRoutingNumber, "must be a 9-digit ABA routing number with a valid check digit")
    .optional(),
  originatorBankName: text(35).optional(),
  originatorToBeneficiaryInfo: text(140).optional(),
  referenceForBeneficiary: text(16).optional(),
});

export function registerSandboxPaymentRoutes(router: Router, bank: Bank) {
  // An incoming wire from another bank, in Pre-Approval until the customer approves, cancels or returns it.
  sandboxRoute(router, bank, "POST", "/sandbox/incoming-wires", incomingWireInput, async (input) => {
    const { amount, ...rest } = input;
    const r = await createIncomingWire(bank.db, bank.clock, { ...rest, cents: amount });
    if (!r) throw badField("accountNumber", "no such account");
    return {
      payment_id: r.payment_id,
      payment_status: r.payment_status,
      payment_timestamp: r.payment_timestamp,
    };
  });

  // Takes the wire system down (POST/PUT /v2/payment answer 503) or brings it back, replaying the backup log.
  sandboxRoute(
    router,
    bank,
    "POST",
    "/sandbox/wire-system",
    z.object({ status: z.enum(["up", "down"], { error: "must be up or down" }) }),
    async (input) => {
      await setWireSystemStatus(bank.db, input.status);
      const replayed = input.status === "up" ? await replayBackupLog(bank) : 0;
      return {
        status: await wireSystemStatus(bank.db),
        replayed,
        pending: await pendingBackupEntries(bank.db),
      };
    },
  );

  // Settles every In-Progress wire now instead of waiting for the settlement delay.
  sandboxRoute(router, bank, "POST", "/sandbox/settle", z.object({}), async () => ({
    settled: await settleDueWires(bank, { all: true }),
  }));
}
