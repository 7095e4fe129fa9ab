// DELETE /api/admin/integration-tokens/[id] - revokes the token at once (audited); its row stays for the record.
import { IdParams } from "@/lib/api/params.ts";
import { withRoute } from "@/lib/api/route.ts";
import { revokeIntegrationToken } from "@/lib/integration/tokens.ts";

export const DELETE = withRoute(
  async ({ db, actor, params }) => {
    return { record: await revokeIntegrationToken(db, actor, params.id) };
  },
  { params: IdParams, permission: "settings.manage" },
);
