// PUT /api/alerts/[accountNumber] - create or change the account's balance-alert rule (re-armed).
// DELETE /api/alerts/[accountNumber] - remove it. Both audited.

import { alertEmailDelivery, deleteRule, saveRule } from "@/lib/alerts/rules.ts";
import { invalid, notFound } from "@/lib/api/errors.ts";
import { withRoute } from "@/lib/api/route.ts";
import { auditActor } from "@/lib/auth/audit.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import {
  AlertRuleInputSchema,
  DeleteRuleResponseSchema,
  SaveRuleResponseSchema,
} from "@/lib/dashboard-api/alerts.ts";
import { customerAccounts } from "@/lib/live/visibility.ts";

async function account(raw: unknown): Promise<string> {
  const n = String(raw ?? "");
  if (!/^\d{1,20}$/.test(n)) throw invalid([{ field: "accountNumber", message: "is not an account number" }]);
  return n;
}

export const PUT = withRoute<
  undefined,
  typeof AlertRuleInputSchema,
  { accountNumber: string },
  typeof SaveRuleResponseSchema
>(
  async ({ db, user, params, body, ip }) => {
    const n = await account(params.accountNumber);
    const bank = await getBankClient();
    if (!(await customerAccounts(bank)).has(n)) throw notFound("No such account.");
    const rule = await saveRule(db, bank, n, body, auditActor(user, ip), alertEmailDelivery());
    return { rule };
  },
  { permission: "alerts.write", body: AlertRuleInputSchema, response: SaveRuleResponseSchema },
);

export const DELETE = withRoute<
  undefined,
  undefined,
  { accountNumber: string },
  typeof DeleteRuleResponseSchema
>(
  async ({ db, user, params, ip }) => {
    const n = await account(params.accountNumber);
    const gone = await deleteRule(db, await getBankClient(), n, auditActor(user, ip));
    if (!gone) throw notFound("This account has no alert rule.");
    return { deleted: n };
  },
  { permission: "alerts.write", response: DeleteRuleResponseSchema },
);
