// An integration token revoked while requests use it, with the dashboard database on a real
// PostgreSQL server: every use either comes before the revocation (recorded before it) or is
// refused; none is recorded after it, and none that starts after the revocation returns succeeds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { UserRow } from "../../lib/auth/users.ts";
import type { DashboardDb } from "../../lib/db/client.ts";
import {
  createIntegrationToken,
  redeemIntegrationToken,
  revokeIntegrationToken,
} from "../../lib/integration/tokens.ts";
import { PG_URL } from "../helpers/databases.ts";
import { openPgTestDashboardDb, type TestDashboardDb, testUser } from "../helpers/routes.ts";

describe.skipIf(!PG_URL)("revoking an integration token while it is used, on PostgreSQL", () => {
  let db: DashboardDb;
  let dashboard: TestDashboardDb;
  let admin: UserRow;

  beforeAll(async () => {
    dashboard = await openPgTestDashboardDb();
    ({ db } = dashboard);
    admin = await testUser(db, "admin", "admin@tokens-race.example", "Admin");
  });

  afterAll(async () => {
    await dashboard?.close();
  });

  it("never records a use after the revocation, and refuses every use begun after it", async () => {
    const actor = { id: admin.id, email: admin.email, ip: "127.0.0.1" };
    for (let round = 1; round <= 15; round++) {
      const { token, record } = await createIntegrationToken(db, actor, {
        name: `ERP ${round}`,
        accounts: ["1"],
      });
      const uses = Array.from({ length: 12 }, (_, i) =>
        redeemIntegrationToken(db, token, `203.0.113.${i}`).then((t) => ({ ok: t !== null, i })),
      );
      const revoked = revokeIntegrationToken(db, actor, record.id);
      const [outcomes, done] = await Promise.all([Promise.all(uses), revoked]);
      expect(done.revokedAt).not.toBeNull();
      const row = (
        await db.query<{ last_used_at: Date | null; last_used_ip: string | null; revoked_at: Date }>(
          "SELECT last_used_at, last_used_ip, revoked_at FROM integration_tokens WHERE id = $1",
          [record.id],
        )
      )[0];
      const succeeded = outcomes.filter((o) => o.ok);
      if (row.last_used_at === null) expect(succeeded, `round ${round}`).toEqual([]);
      else {
        expect(succeeded.length, `round ${round}`).toBeGreaterThan(0);
        expect(new Date(row.last_used_at).getTime(), `round ${round}`).toBeLessThanOrEqual(
          new Date(row.revoked_at).getTime(),
        );
        // The last use recorded is one that was answered as accepted.
        expect(succeeded.map((o) => `203.0.113.${o.i}`)).toContain(row.last_used_ip);
      }
      // After the revocation has returned, every use is refused.
      const late = await Promise.all(
        Array.from({ length: 4 }, () => redeemIntegrationToken(db, token, "198.51.100.1")),
      );
      expect(late, `round ${round}`).toEqual([null, null, null, null]);
    }
    // Each creation and revocation audited once.
    const audit = await db.query<{ action: string; n: string }>(
      "SELECT action, count(*)::text AS n FROM audit_log WHERE action LIKE 'integration_token.%' GROUP BY action ORDER BY action",
    );
    expect(audit).toEqual([
      { action: "integration_token.create", n: "15" },
      { action: "integration_token.revoke", n: "15" },
    ]);
  });
});
