// DELETE /api/admin/integration-tokens/[id] - revokes the token at once (audited); its row stays for the record.
import { invalid } from "@/lib/api/errors.ts";
import { withRoute } from "@/lib/api/route.ts";
import { isId } from "@/lib/dashboard-api/ids.ts";
import { revokeIntegrationToken } from "@/lib/integration/tokens.ts";

export const DELETE = withRoute<undefined, undefined, { id: string }>(
  async ({ db, actor, params }) => {
    const id = params.id;
    if (!isId(id)) throw invalid([{ field: "id", message: "must be a token id" }]);
    return { record: await revokeIntegrationToken(db, actor, id) };
  },
  { permission: "settings.manage" },
);
