// GET /api/accounts/[accountNumber]/ahead - the account's available balance projected over the
// next 30 business days (BalanceAheadResponse): scheduled occurrences and sweeps, drafts waiting
// for release and incoming wires waiting for a decision, each kind apart.
import { accountBalance } from "@/lib/accounts/views.ts";
import { accountNumberFrom } from "@/lib/api/params.ts";
import { withRoute } from "@/lib/api/route.ts";
import { addDays } from "@/lib/bank-api/dates.ts";
import { getBankClient } from "@/lib/bank-client/index.ts";
import { BalanceAheadResponse } from "@/lib/dashboard-api/schedules.ts";
import { readQueue } from "@/lib/incoming-wires/queue.ts";
import { incomingWireSettings } from "@/lib/incoming-wires/settings.ts";
import { listDrafts } from "@/lib/payments/drafts.ts";
import { projectBalanceAhead } from "@/lib/schedules/balance-ahead.ts";
import { scheduleToday } from "@/lib/schedules/requests.ts";
import { upcomingOccurrences } from "@/lib/schedules/series.ts";
import { listSweeps } from "@/lib/schedules/sweeps.ts";

const BUSINESS_DAYS = 30;

export const GET = withRoute<undefined, undefined, { accountNumber: string }, typeof BalanceAheadResponse>(
  async ({ db, params }) => {
    const account = accountNumberFrom(params);
    const bank = await getBankClient();
    const today = await scheduleToday();
    const notes: string[] = [];
    const [balance, occurrences, drafts, sweeps, queue] = await Promise.all([
      accountBalance(bank, account),
      // 30 business days fit in 45 calendar days with every Fed holiday on a weekday.
      upcomingOccurrences(db, today, addDays(today, 45)),
      listDrafts(db, { open: true, limit: 5000 }),
      listSweeps(db),
      readQueue(db, bank, await incomingWireSettings(db)).catch(() => {
        notes.push("Incoming wires waiting could not be read from the bank; they are left out.");
        return null;
      }),
    ]);
    const days = projectBalanceAhead({
      account,
      today,
      availableCents: balance.availableCents,
      businessDays: BUSINESS_DAYS,
      occurrences,
      drafts: drafts.filter((d) => d.status === "pending"),
      incomingWires: (queue?.wires ?? [])
        .filter((w) => w.state === "pending" || w.state === "awaiting_second_approval")
        .map((w) => ({
          paymentId: w.paymentId,
          accountNumber: w.accountNumber,
          amountCents: w.amountCents,
          originator: w.originatorName,
        })),
      sweeps,
    });
    return { accountNumber: account, today, availableCents: balance.availableCents, days, notes };
  },
  { permission: "accounts.read", response: BalanceAheadResponse },
);
