// Runs once when the dashboard's server starts: a bad setting stops it here, not on a request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { config } = await import("./lib/config.ts");
    config();
  }
}
