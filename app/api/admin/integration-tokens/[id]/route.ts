// DELETE /api/admin/integration-tokens/[id] - revokes the token at once (audited); its row stays for the record.

import { revokeIntegrationToken } from "@/lib/integration/tokens.ts";
import { IdParams } from "@/lib/route-kit/params.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

export const DELETE = withRoute(
  async ({ db, actor, params }) => {
    return { record: await revokeIntegrationToken(db, actor, params.id) };
  },
  { params: IdParams, permission: "settings.manage" },
);
