// One statement download: its query checked (400 naming the field), its accounts the customer's
// (404), every account planned from the bank before the first byte, then the file streamed day by
// day so that a 90-day export of thousands of entries a day never sits in memory.

import { addDays, businessDayFormatter } from "../bank-api/dates.ts";
import { bankNow } from "../bank-client/bank-time.ts";
import type { BankClient } from "../bank-client/client.ts";
import { BankCallError, unwrap } from "../bank-client/errors.ts";
import { invalid, notFound } from "../route-kit/errors.ts";
import { Bai2Writer } from "./bai2.ts";
import { CamtWriter } from "./camt.ts";
import { STATEMENT_BANK } from "./codes.ts";
import { checkStatementQuery, type StatementFormat, type StatementQuery } from "./query.ts";
import {
  type AccountDay,
  type AccountPlan,
  accountDays,
  heldWires,
  planAccount,
  SpillDir,
  wireHolds,
} from "./source.ts";

export {
  STATEMENT_FORMATS,
  STATEMENT_MAX_ACCOUNTS,
  STATEMENT_MAX_DAYS,
  type StatementFormat,
  type StatementQuery,
} from "./query.ts";

/** The query of a statement URL (`account` repeated or comma-separated); a 400 naming the field otherwise. */
export function parseStatementQuery(
  params: URLSearchParams,
  format: StatementFormat,
  today: string,
): StatementQuery {
  const r = checkStatementQuery(
    format,
    { account: params.getAll("account"), from: params.get("from"), to: params.get("to") },
    today,
  );
  if (!r.ok) throw invalid(r.fields);
  return r.query;
}

/** The customer's accounts by number with their short names; any other account is a 404. */
export async function ownedAccounts(
  bank: BankClient,
  wanted: string[],
  allowed?: readonly string[],
): Promise<Map<string, string>> {
  const list = unwrap(await bank.call("accountList")).ResponseData.flatMap((d) => d.CUSTACCT);
  const names = new Map(list.map((a) => [a.ACTNBR, a.SHORTNAME]));
  for (const a of wanted)
    if (!names.has(a) || (allowed && !allowed.includes(a)))
      throw notFound(`Account ${a} is not one of this customer's accounts.`);
  return names;
}

const CONTENT_TYPES: Record<StatementFormat, string> = {
  bai2: "text/plain; charset=us-ascii",
  camt053: "application/xml; charset=utf-8",
  camt052: "application/xml; charset=utf-8",
};

export function statementFileName(format: StatementFormat, q: StatementQuery): string {
  if (format === "camt052") return `camt052-${q.to}.xml`;
  return `${format === "bai2" ? "bai2" : "camt053"}-${q.from}-to-${q.to}.${format === "bai2" ? "bai" : "xml"}`;
}

/** Every account's days in step: the same business days, one AccountDay per account each. */
async function* daysInStep(
  plans: AccountPlan[],
  from: string,
  to: string,
): AsyncGenerator<{ day: string; accounts: AccountDay[] }> {
  const iterators = plans.map((p) => accountDays(p, from, to));
  try {
    for (;;) {
      const next = await Promise.all(iterators.map((it) => it.next()));
      if (next.some((n) => n.done)) return;
      const accounts = next.map((n) => n.value as AccountDay);
      yield { day: accounts[0].day, accounts };
    }
  } finally {
    await Promise.all(iterators.map((it) => it.return(undefined)));
  }
}

/** A readable stream pulling its pieces from the generator one at a time: nothing is written ahead. */
function streamOf(pieces: AsyncGenerator<string>, dispose: () => Promise<void>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { value, done } = await pieces.next();
          if (done) controller.close();
          else controller.enqueue(encoder.encode(value));
        } catch (e) {
          controller.error(e);
        }
      },
      async cancel() {
        await pieces.return(undefined);
        // A generator never started runs no `finally`: what it would have removed is removed here.
        await dispose();
      },
    },
    { highWaterMark: 1 },
  );
}

export interface PreparedStatement {
  fileName: string;
  contentType: string;
  body: ReadableStream<Uint8Array>;
}

/**
 * Plans every account (balances now and the days since `from`, read while nothing was booked)
 * and returns the file as a stream: failures before this point are proper error answers; one in
 * the middle of the file (the bank gone) ends the stream with an error, never a file that looks whole.
 */
export async function prepareStatement(
  bank: BankClient,
  format: StatementFormat,
  q: StatementQuery,
  o: { names: Map<string, string>; timeZone: string; now?: Date },
): Promise<PreparedStatement> {
  // The bank's today by its own clock (its `Date` header, heard afresh), in its time zone: the
  // sandbox's clock may run days ahead of this machine's.
  if (!o.now && !(await bank.learnBankTime({ fresh: true })))
    throw new BankCallError({ kind: "unavailable", message: "The bank did not answer.", retryAfter: 5 });
  const now = o.now ?? bankNow();
  const today = businessDayFormatter(o.timeZone)(now);
  const to = format === "camt052" ? today : q.to;
  const from = format === "camt052" ? today : q.from;
  const spill = new SpillDir();
  try {
    return await writeStatement(bank, format, q, { ...o, now, today, from, to, spill });
  } catch (e) {
    await spill.dispose();
    throw e;
  }
}

async function writeStatement(
  bank: BankClient,
  format: StatementFormat,
  q: StatementQuery,
  o: {
    names: Map<string, string>;
    timeZone: string;
    now: Date;
    today: string;
    from: string;
    to: string;
    spill: SpillDir;
  },
): Promise<PreparedStatement> {
  const { now, today, from, to, spill } = o;
  const plans: AccountPlan[] = [];
  for (const a of q.accounts) plans.push(await planAccount(bank, a, { from, to, today, spill }));
  for (const p of plans) {
    p.holds = await wireHolds(bank, p.accountNumber, addDays(from, -1), today, o.timeZone);
  }
  const fileName = statementFileName(format, { ...q, from, to });

  let pieces: AsyncGenerator<string>;
  if (format === "bai2") {
    const writer = new Bai2Writer({
      sender: STATEMENT_BANK.aba,
      receiver: q.accounts[0],
      createdAt: now,
      fileId: String(now.getTime() % 86_400_000),
      timeZone: o.timeZone,
    });
    pieces = (async function* () {
      try {
        yield writer.header();
        for await (const g of daysInStep(plans, from, to)) yield* writer.group(g.day, g.accounts);
        yield writer.trailer();
      } finally {
        await spill.dispose();
      }
    })();
  } else {
    const kind = format === "camt053" ? "camt.053" : "camt.052";
    const writer = new CamtWriter(kind, {
      messageId: `${format.toUpperCase()}-${now.getTime()}`,
      createdAt: now,
    });
    const pending =
      format === "camt052"
        ? new Map(
            await Promise.all(
              plans.map(
                async (p) => [p.accountNumber, await heldWires(bank, p.accountNumber, today)] as const,
              ),
            ),
          )
        : new Map();
    pieces = (async function* () {
      try {
        yield writer.header();
        for await (const g of daysInStep(plans, from, to))
          for (const a of g.accounts)
            yield* writer.statementPieces(a, {
              accountName: o.names.get(a.accountNumber) || undefined,
              pending: pending.get(a.accountNumber),
            });
        yield writer.trailer();
      } finally {
        await spill.dispose();
      }
    })();
  }
  return { fileName, contentType: CONTENT_TYPES[format], body: streamOf(pieces, () => spill.dispose()) };
}

/** The download: the file's type and name, never cached (camt.052 reads the bank afresh each time). */
export function statementResponse(p: PreparedStatement, requestId: string): Response {
  return new Response(p.body, {
    status: 200,
    headers: {
      "Content-Type": p.contentType,
      "Content-Disposition": `attachment; filename="${p.fileName}"`,
      "Cache-Control": "no-store",
      "X-Request-Id": requestId,
    },
  });
}
