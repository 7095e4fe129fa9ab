// GET /api/alerts - the balance-alert rules, the accounts they may watch (with today's available
// balance) and how their e-mail goes out.

import { listAccounts } from "@/lib/accounts/views.ts";
import { alertEmailDelivery, listRules } from "@/lib/alerts/rules.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { AlertRulesResponseSchema } from "@/lib/dashboard-api/alerts.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const dynamic = "force-dynamic";

export const GET = withRoute(
  async ({ db }) => {
    const [accounts, rules] = await Promise.all([listAccounts(await getBankClient()), listRules(db)]);
    return {
      accounts: accounts.accounts.map((a) => ({
        accountNumber: a.accountNumber,
        name: a.name,
        availableCents: a.availableCents,
      })),
      rules,
      emailDelivery: alertEmailDelivery(),
    };
  },
  { permission: "alerts.read", response: AlertRulesResponseSchema },
);
