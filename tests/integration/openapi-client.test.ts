// A team integrating with the bank generates its client from /openapi.json. This does the same
// with openapi-typescript, type-checks a full flow written with openapi-fetch against the
// generated types (zero errors), then runs that flow against the bank in JSON and in XML.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxCustomer, startTestBank, type TestBank } from "../helpers/bank.ts";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const clientDir = path.join(root, "tests/generated-client");

let bank: TestBank;

/** A customer of its own per run (the bank issues one token per key per five minutes). */
async function customerWithAccounts(name: string) {
  const c = await sandboxCustomer(bank, name);
  return {
    subscriptionKey: c.subscriptionKey,
    senFrom: await c.account("SEN", 1000),
    senTo: await c.account("SEN", 0),
    dda: await c.account("DDA", 5000),
  };
}

beforeAll(async () => {
  bank = await startTestBank();
  const doc = await (await fetch(`${bank.url}/openapi.json`)).json();
  fs.writeFileSync(path.join(clientDir, "bank-api.d.ts"), astToString(await openapiTS(doc)));
});
afterAll(async () => {
  await bank?.close();
});

describe("a client generated from /openapi.json", () => {
  it("types the token's Authorization header as a string that is always there", () => {
    const types = fs.readFileSync(path.join(clientDir, "bank-api.d.ts"), "utf8");
    expect(types).toMatch(/Authorization: string;/);
    expect(types).not.toMatch(/Authorization\?: string/);
  });

  it("compiles a full flow with zero type errors", () => {
    const tsc = spawnSync(
      process.execPath,
      [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(clientDir, "tsconfig.json")],
      { encoding: "utf8" },
    );
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  }, 120_000);

  for (const format of ["json", "xml"] as const) {
    it(`runs the flow against the bank in ${format.toUpperCase()}`, async () => {
      // Loaded by a computed path: the project's own type check must not follow it, because its
      // types exist only once this test has generated them (the check above compiles it with them).
      const flow = "../generated-client/flow.ts";
      const { runFlow } = (await import(/* @vite-ignore */ flow)) as {
        runFlow(
          input: Record<string, string>,
        ): Promise<{ balanceBefore: number; balanceAfter: number } & Record<string, unknown>>;
      };
      const r = await runFlow({
        baseUrl: bank.url,
        ...(await customerWithAccounts(`Generated Client ${format} Corp`)),
        format,
        idempotencyKey: randomUUID(),
      });
      expect(r.accounts).toBe(3);
      // The same Idempotency-Key twice moved 12.34 once and answered the same both times.
      expect(Math.round((r.balanceBefore - r.balanceAfter) * 100)).toBe(1234);
      expect(r.transferReplayedSame).toBe(true);
      expect(r.historyItems).toBeGreaterThanOrEqual(1);
      expect(r.paymentStatus).toBe("In-Progress");
      expect(r.paymentsListed).toBe(1);
      expect(r.webhookId).not.toBe("");
      expect(r.webhooksListed).toBe(1);
      expect(r.deleted).toContain(r.webhookId);
    });
  }
});
