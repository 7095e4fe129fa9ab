// GET /api/admin/integration-tokens - every integration token (never its value), with its last use;
// POST - a new read-only token for chosen accounts, its value shown in this answer only (audited).
import { z } from "zod";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { createIntegrationToken, listIntegrationTokens } from "@/lib/integration/tokens.ts";
import { withRoute } from "@/lib/route-kit/route.ts";
import { ownedAccounts } from "@/lib/statements/export.ts";

const newToken = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Name the system the token is for.")
    .max(80, "must be at most 80 characters"),
  accounts: z
    .array(z.string().regex(/^\d{1,20}$/, "must be an account number (digits only)"))
    .min(1, "Choose at least one account.")
    .max(50, "Choose at most 50 accounts."),
});

export const GET = withRoute(async ({ db }) => ({ tokens: await listIntegrationTokens(db) }), {
  permission: "settings.manage",
});

export const POST = withRoute(
  async ({ db, actor, body }) => {
    const accounts = [...new Set(body.accounts)];
    await ownedAccounts(await getBankClient(), accounts);
    const { token, record } = await createIntegrationToken(db, actor, { name: body.name, accounts });
    return new Response(JSON.stringify({ token, record }), {
      status: 201,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
    });
  },
  { permission: "settings.manage", body: newToken },
);
