// Reads what the balance ahead rests on, once for any number of accounts: the bank's balances, the
// scheduled occurrences of the next 45 calendar days, open drafts, sweeps, incoming wires waiting
// and each account's low alert line. The account page and the inbox's shortfall warnings both
// project from it, so they cannot disagree.
import "server-only";
import { accountBalance } from "../accounts/views.ts";
import { listRules } from "../alerts/rules.ts";
import { addDays } from "../bank-api/dates.ts";
import type { BankClient } from "../bank-client/client.ts";
import type { DashboardDb } from "../db/client.ts";
import { readQueue } from "../incoming-wires/queue.ts";
import { listDrafts } from "../payments/drafts.ts";
import {
  type AheadDay,
  firstShortfall,
  projectBalanceAhead,
  type SweepMoveAhead,
  sweepMoves,
} from "./balance-ahead.ts";
import { scheduleToday } from "./requests.ts";
import { upcomingOccurrences } from "./series.ts";
import { listSweeps } from "./sweeps.ts";

/** Business days the balance ahead covers. */
export const AHEAD_BUSINESS_DAYS = 30;

export interface AccountAhead {
  accountNumber: string;
  availableCents: number;
  days: AheadDay[];
  /** The account's low alert line, when its alert rule has one. */
  alertBelowCents: number | null;
  shortfall: ReturnType<typeof firstShortfall>;
}

export async function readBalanceAhead(
  db: DashboardDb,
  bank: BankClient,
  accounts: readonly string[],
): Promise<{ today: string; accounts: AccountAhead[]; notes: string[] }> {
  const today = await scheduleToday();
  const notes: string[] = [];
  const [balances, occurrences, drafts, sweeps, rules, queue] = await Promise.all([
    Promise.all(accounts.map((a) => accountBalance(bank, a))),
    // 30 business days fit in 45 calendar days with every Fed holiday on a weekday.
    upcomingOccurrences(db, today, addDays(today, 45)),
    listDrafts(db, { open: true, limit: 5000 }),
    listSweeps(db),
    listRules(db),
    readQueue(db, bank).catch(() => {
      notes.push("Incoming wires waiting could not be read from the bank; they are left out.");
      return null;
    }),
  ]);
  const pending = drafts.filter((d) => d.status === "pending");
  const incomingWires = (queue?.wires ?? [])
    .filter((w) => w.state === "pending" || w.state === "awaiting_second_approval")
    .map((w) => ({
      paymentId: w.paymentId,
      accountNumber: w.accountNumber,
      amountCents: w.amountCents,
      originator: w.originatorName,
    }));
  const below = new Map(rules.map((r) => [r.accountNumber, r.belowCents]));
  const project = (account: string, availableCents: number, fundedMoves: SweepMoveAhead[] = []) =>
    projectBalanceAhead({
      account,
      today,
      availableCents,
      businessDays: AHEAD_BUSINESS_DAYS,
      occurrences,
      drafts: pending,
      incomingWires,
      sweeps,
      fundedMoves,
    });
  // The funding side of each sweep: the kept account is projected first (its own balance read for
  // it) and its moves go the other way in the funding account's projection.
  const funding = sweeps.filter(
    (s) => s.status === "active" && s.approved && accounts.includes(s.fundingAccount),
  );
  const kept = [...new Set(funding.map((s) => s.account))];
  const keptBalances = await Promise.all(
    kept.map(async (a) => balances.find((b) => b.accountNumber === a) ?? accountBalance(bank, a)),
  );
  const moves = keptBalances.flatMap((b) =>
    sweepMoves(b.accountNumber, project(b.accountNumber, b.availableCents)).filter((m) =>
      funding.some((s) => s.id === m.sweepId),
    ),
  );
  return {
    today,
    notes,
    accounts: balances.map((balance) => {
      const fundedHere = moves.filter((m) =>
        funding.some((s) => s.id === m.sweepId && s.fundingAccount === balance.accountNumber),
      );
      const days = project(balance.accountNumber, balance.availableCents, fundedHere);
      const alertBelowCents = below.get(balance.accountNumber) ?? null;
      return {
        accountNumber: balance.accountNumber,
        availableCents: balance.availableCents,
        days,
        alertBelowCents,
        shortfall: firstShortfall(days, alertBelowCents),
      };
    }),
  };
}
