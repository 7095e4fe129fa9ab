// GET /api/session - the session's idle and absolute deadlines, for the idle guard

import { sessionSettings } from "@/lib/auth/session-limits.ts";
import { SessionTiming } from "@/lib/dashboard-api/index.ts";
import { withRoute } from "@/lib/route-kit/route.ts";

const iso = (sec: number) => new Date(sec * 1000).toISOString();

export const GET = withRoute(
  async ({ session }): Promise<SessionTiming> => {
    const s = sessionSettings();
    return {
      idleSeconds: s.idleSeconds,
      warningSeconds: s.warningSeconds,
      lastActivity: iso(session.lastActivity),
      signedInAt: iso(session.signedInAt),
      absoluteDeadline: iso(session.signedInAt + s.absoluteSeconds),
    };
  },
  { response: SessionTiming },
);
