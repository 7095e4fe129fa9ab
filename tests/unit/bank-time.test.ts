// The bank's clock as its answers tell it is one value per process, whichever copy of the module
// noted it: Next bundles the instrumentation and each route apart, and the shared bank client
// notes the Date header through the copy of the bundle that made it.
import { afterEach, describe, expect, it, vi } from "vitest";

describe("the bank's time", () => {
  afterEach(async () => {
    const { noteBankDate } = await import("../../lib/bank-client/bank-time.ts");
    noteBankDate(new Date().toUTCString(), Date.now(), Date.now());
  });

  it("is seen by another copy of the module than the one that noted it", async () => {
    const first = await import("../../lib/bank-client/bank-time.ts");
    const tenDaysAhead = new Date(Date.now() + 10 * 86_400_000);
    first.noteBankDate(tenDaysAhead.toUTCString(), Date.now(), Date.now());
    vi.resetModules();
    const second = await import("../../lib/bank-client/bank-time.ts");
    expect(second).not.toBe(first);
    const ahead = second.bankNow().getTime() - Date.now();
    expect(ahead).toBeGreaterThan(10 * 86_400_000 - 5_000);
    expect(ahead).toBeLessThan(10 * 86_400_000 + 5_000);
  });
});
