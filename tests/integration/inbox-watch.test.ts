// The inbox watch (lib/inbox/watch.ts) against the real bank: a page that listens hears of a new
// incoming wire at the next look; with no one listening nothing is read from the bank; and the
// pace of the looks is the INBOX_WATCH_MS setting, since each look costs one payment read per
// account at the bank.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { config } from "../../lib/config.ts";
import { getInboxWatch, InboxWatch, setInboxWatch } from "../../lib/inbox/watch.ts";
import { sandbox } from "../helpers/bank.ts";
import { type CountingBankClient, openRouteWorld, type RouteWorld } from "../helpers/routes.ts";

let world: RouteWorld;
let client: CountingBankClient;
let account: string;

const paymentReads = () => client.sent.filter((n) => n === "listPayments").length;

beforeAll(async () => {
  world = await openRouteWorld("inbox-watch", { customer: "Inbox Watch LLC" });
  client = world.client as CountingBankClient;
  account = await world.customer.account("DDA", 1_000);
}, 120_000);

afterAll(async () => {
  delete process.env.INBOX_WATCH_MS;
  setInboxWatch(undefined);
  await world?.close();
});

beforeEach(() => {
  client.sent = [];
});

describe("the inbox watch", () => {
  it("tells a listening page of a new incoming wire, and asks the bank nothing once no page listens", async () => {
    const watch = new InboxWatch(world.db, async () => client, 100);
    let changes = 0;
    const stop = watch.subscribe(() => changes++);
    try {
      // The first looks set the baseline: nothing has changed yet.
      await vi.waitFor(() => expect(paymentReads()).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
      expect(changes).toBe(0);
      await sandbox(world.bank, "POST", "/sandbox/incoming-wires", {
        accountNumber: account,
        amount: 1_234.56,
        originatorName: "WATCHED SUPPLIES INC",
        originatorToBeneficiaryInfo: "INVOICE 7",
      });
      await vi.waitFor(() => expect(changes).toBe(1), { timeout: 10_000 });
    } finally {
      stop();
    }
    // A look already under way may finish (however slow the machine); after it, no page listens
    // and nothing more is read.
    let after = -1;
    for (let i = 0; i < 50 && after !== client.sent.length; i++) {
      after = client.sent.length;
      await sleep(300);
    }
    await sleep(600);
    expect(client.sent.length).toBe(after);
    expect(changes).toBe(1);
    watch.close();
  });

  it("looks at the pace INBOX_WATCH_MS sets, and refuses a setting that is not a whole number", async () => {
    process.env.INBOX_WATCH_MS = "500";
    expect(config().inboxWatchMs).toBe(500);
    setInboxWatch(undefined);
    const watch = await getInboxWatch();
    const stop = watch.subscribe(() => {});
    try {
      await vi.waitFor(() => expect(paymentReads()).toBeGreaterThanOrEqual(1), { timeout: 10_000 });
      const first = paymentReads();
      await sleep(2_000);
      // One read per account a look, and no more than one look in 500 ms: at most five looks in
      // these two seconds (the default pace would make up to nine).
      const accounts = await client.call("accountList");
      if (!accounts.ok) throw new Error("the bank did not list the accounts");
      const perLook = accounts.data.ResponseData.flatMap((d) => d.CUSTACCT).length;
      expect(perLook).toBeGreaterThan(0);
      expect((paymentReads() - first) / perLook).toBeLessThanOrEqual(5);
    } finally {
      stop();
      watch.close();
      setInboxWatch(undefined);
    }
    for (const wrong of ["0", "-250", "fast", "2.5"]) {
      process.env.INBOX_WATCH_MS = wrong;
      expect(() => config(), wrong).toThrow(/INBOX_WATCH_MS/);
    }
    delete process.env.INBOX_WATCH_MS;
    expect(config().inboxWatchMs).toBe(250);
  });
});
