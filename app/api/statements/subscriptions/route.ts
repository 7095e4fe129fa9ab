// GET /api/statements/subscriptions - the statement subscriptions and the files delivered in the
// last 90 days; POST - a new one (administrators): each business day at 07:00 by the bank's clock,
// the prior-day BAI2 of its accounts e-mailed to dashboard users (audited).
import { z } from "zod";
import { listUsers } from "@/lib/auth/users.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { invalid } from "@/lib/route-kit/errors.ts";
import { bankToday } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { ownedAccounts } from "@/lib/statements/export.ts";
import { STATEMENT_MAX_ACCOUNTS } from "@/lib/statements/query.ts";
import { createSubscription, listDeliveries, listSubscriptions } from "@/lib/statements/subscriptions.ts";

const newSubscription = z.object({
  name: z.string().trim().min(1, "Name the subscription.").max(80, "must be at most 80 characters"),
  accounts: z
    .array(z.string().regex(/^\d{1,20}$/, "must be an account number (digits only)"))
    .min(1, "Choose at least one account.")
    .max(STATEMENT_MAX_ACCOUNTS, `Choose at most ${STATEMENT_MAX_ACCOUNTS} accounts.`),
  recipients: z
    .array(z.string().trim().toLowerCase().email("must be an e-mail address"))
    .min(1, "Name at least one person to e-mail.")
    .max(20, "Name at most 20 people."),
});

export const GET = withRoute(
  async ({ db }) => ({ subscriptions: await listSubscriptions(db), deliveries: await listDeliveries(db) }),
  { permission: "accounts.read" },
);

export const POST = withRoute(
  async ({ db, actor, body }) => {
    const accounts = [...new Set(body.accounts)];
    const recipients = [...new Set(body.recipients)];
    // Statements go to the dashboard's own people only.
    const users = new Set((await listUsers(db)).filter((u) => !u.disabled).map((u) => u.email.toLowerCase()));
    const strangers = recipients.filter((r) => !users.has(r));
    if (strangers.length)
      throw invalid([
        { field: "recipients", message: `${strangers.join(", ")} is not a user of this dashboard.` },
      ]);
    await ownedAccounts(await getBankClient(), accounts);
    const record = await createSubscription(db, actor, {
      name: body.name,
      accounts,
      recipients,
      bankToday: await bankToday(),
    });
    return new Response(JSON.stringify({ subscription: record }), {
      status: 201,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
    });
  },
  { permission: "settings.manage", body: newSubscription },
);
