// PUT /api/alerts/[accountNumber] - create or change the account's balance-alert rule (re-armed).
// DELETE /api/alerts/[accountNumber] - remove it. Both audited.

import { alertEmailDelivery, deleteRule, saveRule } from "@/lib/alerts/rules.ts";
import { auditActor } from "@/lib/audit/log.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import {
  AlertRuleInputSchema,
  DeleteRuleResponseSchema,
  SaveRuleResponseSchema,
} from "@/lib/dashboard-api/alerts.ts";
import { customerAccounts } from "@/lib/live/visibility.ts";
import { notFound } from "@/lib/route-kit/errors.ts";
import { AccountParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const PUT = withRoute(
  async ({ db, user, params, body, ip }) => {
    const n = params.accountNumber;
    const bank = await getBankClient();
    if (!(await customerAccounts(bank)).has(n)) throw notFound("No such account.");
    const rule = await saveRule(db, bank, n, body, auditActor(user, ip), alertEmailDelivery());
    return { rule };
  },
  {
    params: AccountParams,
    permission: "alerts.write",
    body: AlertRuleInputSchema,
    response: SaveRuleResponseSchema,
  },
);

export const DELETE = withRoute(
  async ({ db, user, params, ip }) => {
    const n = params.accountNumber;
    const gone = await deleteRule(db, await getBankClient(), n, auditActor(user, ip));
    if (!gone) throw notFound("This account has no alert rule.");
    return { deleted: n };
  },
  { params: AccountParams, permission: "alerts.write", response: DeleteRuleResponseSchema },
);
