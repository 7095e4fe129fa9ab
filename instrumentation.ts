// Runs once when the dashboard's server starts: a bad setting stops it here, not on a request.
// Under `npm start` (NEXT_MANUAL_SIG_HANDLE=true) the graceful stop on SIGTERM is ours
// (lib/operations/lifecycle.ts): Next's own would wait for live event streams and exit 143.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { config } = await import("./lib/config.ts");
    config();
    // The metrics registry exists before the first request: the HTTP server counts into it.
    const { dashboardMetrics } = await import("./lib/operations/metrics.ts");
    dashboardMetrics();
    // The approval digest looks on a timer of its own (lib/inbox/digest-ticker.ts).
    const { startApprovalDigest } = await import("./lib/inbox/digest-ticker.ts");
    startApprovalDigest();
    // Scheduled payments run on a timer of their own, by the bank's business date (lib/schedules/ticker.ts).
    const { startScheduleRuns } = await import("./lib/schedules/ticker.ts");
    startScheduleRuns();
    // Statement subscriptions: each business day's 07:00 BAI2 by e-mail (lib/statements/subscription-ticker.ts).
    const { startStatementSubscriptions } = await import("./lib/statements/subscription-ticker.ts");
    startStatementSubscriptions();
    if (process.env.NEXT_MANUAL_SIG_HANDLE) {
      const { stopGracefully } = await import("./lib/operations/lifecycle.ts");
      const { startedLiveHub } = await import("./lib/live/hub.ts");
      const { openedDashboardDb } = await import("./lib/db/client.ts");
      const { stopApprovalDigest } = await import("./lib/inbox/digest-ticker.ts");
      const { stopScheduleRuns } = await import("./lib/schedules/ticker.ts");
      const { stopStatementSubscriptions } = await import("./lib/statements/subscription-ticker.ts");
      const closeResources = async () => {
        stopApprovalDigest();
        stopScheduleRuns();
        stopStatementSubscriptions();
        await (await startedLiveHub()?.catch(() => undefined))?.close();
        await (await openedDashboardDb()?.catch(() => undefined))?.close();
      };
      for (const sig of ["SIGTERM", "SIGINT"] as const)
        process.on(sig, () => void stopGracefully(closeResources));
    }
  }
}
