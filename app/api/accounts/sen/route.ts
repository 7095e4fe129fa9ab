// POST /api/accounts/sen - opens a SEN account (CreateSenAccountResponse), audited with the bank's answer.
// The new account gets its live-balance webhook at once, not at the next periodic check.

import { appendAudit } from "@/lib/audit/log.ts";
import { BankCallError } from "@/lib/bank-client/errors.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { CreateSenAccountRequest, CreateSenAccountResponse } from "@/lib/dashboard-api/sen-accounts.ts";
import { withoutBlanks } from "@/lib/dashboard-api/wires.ts";
import { accountsChanged } from "@/lib/live/receiver.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const POST = withRoute(
  async ({ db, user, body, ip }) => {
    const r = await (await getBankClient()).call("createSen", { body: withoutBlanks(body) as never });
    await appendAudit(db, {
      actorId: user.id,
      actorEmail: user.email,
      action: "account.create_sen",
      target: r.ok ? r.data.AccountNumber : null,
      result: r.ok ? "ok" : r.error.kind === "rejected" ? "rejected by bank" : "bank unavailable",
      detail: {
        bankAnswer: r.ok
          ? { AccountNumber: r.data.AccountNumber, Message: r.data.Message }
          : { error: r.error.message },
      },
      ip,
    });
    if (!r.ok) throw new BankCallError(r.error);
    accountsChanged();
    return { accountNumber: r.data.AccountNumber, message: r.data.Message };
  },
  { permission: "transfers.create", body: CreateSenAccountRequest, response: CreateSenAccountResponse },
);
