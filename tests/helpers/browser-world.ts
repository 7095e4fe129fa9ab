// What a browser test file stands on: the product as `npm start` starts it, the demo customer's
// bank beside it, and Chromium. Started before the file's tests, stopped after them.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { launchChromium, signIn } from "./browser.ts";
import { type RunningDashboard, startDashboard } from "./dashboard.ts";
import { type DemoBank, demoBank } from "./live.ts";

export interface BrowserWorld {
  app: RunningDashboard;
  browser: Browser;
  demo: DemoBank;
  /** A tab of its own, signed in as the role, at the width (a phone's height below 500 px). */
  session(role: string, width?: number): Promise<{ context: BrowserContext; page: Page }>;
  /** GET of the dashboard's API as the page's user: the answer, after checking it is a 200. */
  api<T>(page: Page, path: string): Promise<T>;
}

/**
 * Starts the world for the file's tests; its fields are set once they run. `env` goes to the
 * bank and the dashboard; a build on a busy machine can take minutes, hence the default wait.
 * The wire system is set up again at the end, whatever a test left it as.
 */
export function browserWorld(opts: { env?: Record<string, string>; timeoutMs?: number } = {}): BrowserWorld {
  const timeoutMs = opts.timeoutMs ?? 600_000;
  const world: BrowserWorld = {
    app: undefined as unknown as RunningDashboard,
    browser: undefined as unknown as Browser,
    demo: undefined as unknown as DemoBank,
    async session(role, width = 1440) {
      const context = await world.browser.newContext({
        viewport: { width, height: width > 500 ? 900 : 844 },
      });
      return { context, page: await signIn(world.app, context, role) };
    },
    async api<T>(page: Page, path: string) {
      const r = await page.request.get(`${world.app.url}${path}`);
      expect(r.status(), `${path}: ${await r.text()}`).toBe(200);
      return (await r.json()) as T;
    },
  };
  beforeAll(async () => {
    world.app = await startDashboard({ env: opts.env, timeoutMs });
    world.demo = demoBank(world.app.dataDir);
    world.browser = await launchChromium();
  }, timeoutMs + 60_000);
  afterAll(async () => {
    if (world.demo) await world.demo.sandbox("/sandbox/wire-system", { status: "up" }).catch(() => {});
    await world.browser?.close();
    await world.app?.stop();
  });
  return world;
}
