// GET /api/session - the session's idle and absolute deadlines, for the idle guard
import { withRoute } from "@/lib/api/route.ts";
import { sessionSettings } from "@/lib/auth/settings.ts";
import { SessionTiming } from "@/lib/dashboard-api/index.ts";

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
