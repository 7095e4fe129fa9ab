// Sandbox calls for customers, accounts, deposits and the clock.
import { z } from "zod";
import { required, str } from "../../lib/bank-api/fields.ts";
import { TRAN_CODES } from "../../lib/bank-api/history.ts";
import { centsToDollars, dollarsToCents } from "../../lib/bank-api/money.ts";
import type { SqlRow } from "../../lib/server/sql-row.ts";
import { hashKey, newSubscriptionKey, newWebhookSecret } from "../auth/keys.ts";
import type { Bank } from "../context.ts";
import type { Queryable } from "../db/client.ts";
import type { customers } from "../db/schema.ts";
import { badField } from "../http/errors.ts";
import type { Router } from "../http/router.ts";
import { openAccount } from "../ledger/accounts.ts";
import { sandboxRoute } from "./guard.ts";

const dollars = (field: string, opts: { allowZero?: boolean } = {}) =>
  z.union([z.number(), z.string()]).transform((v, ctx) => {
    const cents = dollarsToCents(v);
    if (cents === null || cents < 0 || (!opts.allowZero && cents === 0)) {
      ctx.addIssue({
        code: "custom",
        message: `${field} must be a positive amount in dollars with at most two decimals`,
      });
      return z.NEVER;
    }
    return cents;
  });

export const createCustomerInput = z.object({
  name: required(80),
  shortName: str(20).optional(),
  titleLines: z.array(str(40)).max(6).optional(),
});

export async function createCustomer(db: Queryable, input: z.output<typeof createCustomerInput>) {
  const subscriptionKey = newSubscriptionKey();
  const webhookSecret = newWebhookSecret();
  const rows = await db.query<Pick<SqlRow<typeof customers>, "id">>(
    `INSERT INTO customers (name, short_name, title_lines, key_hash, webhook_secret) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [
      input.name,
      (input.shortName ?? input.name).slice(0, 20).toUpperCase(),
      input.titleLines ?? [input.name.toUpperCase()],
      hashKey(subscriptionKey),
      webhookSecret,
    ],
  );
  return { customerId: rows[0].id, subscriptionKey, webhookSecret };
}

export const createAccountInput = z.object({
  customerId: z.number().int().positive(),
  type: z.enum(["DDA", "SEN"], { error: "must be DDA or SEN" }),
  balance: dollars("balance", { allowZero: true }).optional(),
  shortName: str(20).optional(),
});

export async function createSandboxAccount(bank: Bank, input: z.output<typeof createAccountInput>) {
  const c = await bank.db.query<Pick<SqlRow<typeof customers>, "short_name" | "title_lines">>(
    "SELECT short_name, title_lines FROM customers WHERE id = $1",
    [input.customerId],
  );
  if (!c.length) throw badField("customerId", "no such customer");
  const accountNumber = await openAccount(bank.db, {
    customerId: input.customerId,
    type: input.type,
    titleLines: c[0].title_lines,
    shortName: input.shortName ?? c[0].short_name,
    openedOn: bank.clock.businessDate(),
  });
  if (input.balance) await deposit(bank, accountNumber, input.balance, "OPENING DEPOSIT");
  return { accountNumber };
}

/** A credit through the ledger function: balance, entry and webhook notifications in one statement. */
export async function deposit(bank: Bank, account: string, cents: number, description = "DEPOSIT") {
  const now = bank.clock.now();
  const rows = await bank.db.query<{ r: { status: string; code?: string; available?: number } }>(
    "SELECT post_entry($1, 'C', $2, $3, $4, $5, $6, '', '') AS r",
    [
      account,
      cents,
      TRAN_CODES.DEPOSIT,
      [description.slice(0, 40), "SANDBOX DEPOSIT"],
      now,
      bank.clock.businessDate(now),
    ],
  );
  const r = rows[0].r;
  if (r.status !== "ok") throw badField("accountNumber", "no such account");
  bank.events.emit("balance-changed");
  return r;
}

export function registerSandboxCoreRoutes(router: Router, bank: Bank) {
  sandboxRoute(router, bank, "POST", "/sandbox/customers", createCustomerInput, (input) =>
    createCustomer(bank.db, input),
  );

  sandboxRoute(router, bank, "POST", "/sandbox/accounts", createAccountInput, (input) =>
    createSandboxAccount(bank, input),
  );

  sandboxRoute(
    router,
    bank,
    "POST",
    "/sandbox/deposits",
    z.object({ accountNumber: required(20), amount: dollars("amount"), description: str(40).optional() }),
    async (input) => {
      const r = await deposit(bank, input.accountNumber, input.amount, input.description);
      return { accountNumber: input.accountNumber, availableBalance: centsToDollars(r.available ?? 0) };
    },
  );

  sandboxRoute(
    router,
    bank,
    "POST",
    "/sandbox/clock",
    z.object({
      advanceSeconds: z
        .number()
        .int()
        .min(0)
        .max(10 * 365 * 86400),
    }),
    async (input) => {
      await bank.clock.advance(input.advanceSeconds);
      bank.events.emit("clock-advanced");
      return { now: bank.clock.now().toISOString(), businessDate: bank.clock.businessDate() };
    },
  );

  // The bank's own "now" and business day: a client computing "today" a second way (its own wall
  // clock, another time zone) disagrees with the bank whenever the sandbox clock has moved.
  sandboxRoute(router, bank, "GET", "/sandbox/clock", z.object({}), async () => {
    await bank.clock.sync();
    return { now: bank.clock.now().toISOString(), businessDate: bank.clock.businessDate() };
  });
}
