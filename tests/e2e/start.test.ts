// `npm start` as a newcomer meets it twice: the first start, then a later one on the same data
// folder after someone has set up two-step sign-in. The later start reuses the build and
// raises no alarm about stored TOTP seeds.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { enableTotp } from "../../lib/auth/second-factor.ts";
import { newTotpSecret } from "../../lib/auth/totp.ts";
import { findUserByEmail } from "../../lib/auth/users.ts";
import { openDashboardDb } from "../../lib/db/client.ts";
import { type RunningDashboard, startDashboard } from "../helpers/dashboard.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dashboard-start-"));
let app: RunningDashboard | undefined;

afterAll(async () => {
  await app?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("npm start", () => {
  it("starts again after two-step sign-in was set up, with no TOTP alarm and no rebuild", async () => {
    app = await startDashboard({ env: { DATA_DIR: dataDir } });
    const first = app.output();
    expect(first).toMatch(/Dashboard ready: http:\/\/127\.0\.0\.1:\d+ \(started in \d+ s\)/);
    const admin = app.users.find((u) => u.role === "admin");
    expect(admin).toBeTruthy();
    await app.stop({ keepData: true });

    // The admin enrols a second factor: the seed is sealed under the start's own secret.
    const saved = process.env.NEXTAUTH_SECRET;
    process.env.NEXTAUTH_SECRET = fs.readFileSync(path.join(dataDir, "dashboard-secret"), "utf8").trim();
    const db = await openDashboardDb({ dataDir: path.join(dataDir, "dashboard") });
    try {
      const user = await findUserByEmail(db, admin?.email as string);
      await enableTotp(db, user?.id as string, newTotpSecret(), 0);
    } finally {
      await db.close();
      process.env.NEXTAUTH_SECRET = saved;
    }

    app = await startDashboard({ env: { DATA_DIR: dataDir } });
    const second = app.output();
    expect(second).toContain("Dashboard ready");
    expect(second).not.toMatch(/TOTP secret cannot be opened/);
    expect(second).not.toContain("Building the dashboard");
    // The same demo users and passwords as the first start.
    expect(app.users).toEqual(
      [...first.matchAll(/demo user: (\S+) role=(\w+) password=(\S+)/g)].map((m) => ({
        email: m[1],
        role: m[2],
        password: m[3],
      })),
    );
  });
});
