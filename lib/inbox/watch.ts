// Tells open pages when what waits may have changed, within a fraction of a second. The bank
// reports balance changes by webhook, but an incoming wire in Pre-Approval moves no balance, so
// while at least one page listens this process looks at the newest payment of each account
// (one record per account per look) and at the dashboard's own drafts, votes and decisions (one
// small query), and emits "changed" when either moved. Each instance looks for its own pages:
// no instance depends on another, and none looks while no one listens.
import "server-only";
import { EventEmitter } from "node:events";
import { OPEN_DRAFT_STATUSES, sqlStates } from "../approvals/draft-rules.ts";
import { paymentWindowBegin } from "../bank-api/payments.ts";
import { bankNow } from "../bank-client/bank-time.ts";
import type { BankClient } from "../bank-client/client.ts";
import { getBankClient } from "../bank-client/index.ts";
import { config } from "../config.ts";
import { getDashboardDb, type Queryable } from "../db/client.ts";
import { createLogger } from "../server/log.ts";
import { processSingleton } from "../server/process-singleton.ts";

const log = createLogger("inbox");

/** How often it looks while someone listens, unless INBOX_WATCH_MS says otherwise. */
export const INBOX_WATCH_MS = 250;
/** The account list changes rarely (a new SEN account): read again this often. */
const ACCOUNTS_TTL_MS = 30_000;

const DB_FINGERPRINT = `
  SELECT (SELECT count(*) || ':' || coalesce(sum(version), 0) || ':' || coalesce(max(prepared_at)::text, '')
            FROM payment_drafts WHERE status IN (${sqlStates(OPEN_DRAFT_STATUSES)})) AS drafts,
         (SELECT count(*) || ':' || coalesce(max(approved_at)::text, '') FROM draft_approvals) AS approvals,
         (SELECT count(*) || ':' || coalesce(max(at)::text, '') FROM incoming_wire_votes) AS votes,
         (SELECT count(*) || ':' || coalesce(max(updated_at)::text, '') FROM incoming_wire_decisions) AS decisions`;

export class InboxWatch {
  private readonly emitter = new EventEmitter();
  private timer: NodeJS.Timeout | null = null;
  private last: string | null = null;
  private accounts: { at: number; list: string[] } | null = null;
  private running = false;

  constructor(
    private readonly db: Queryable,
    private readonly getBank: (() => Promise<BankClient>) | null,
    private readonly everyMs = INBOX_WATCH_MS,
  ) {
    this.emitter.setMaxListeners(0);
  }

  /** Calls fn whenever what waits may have changed; the returned function stops that. */
  subscribe(fn: () => void): () => void {
    this.emitter.on("changed", fn);
    if (!this.timer) this.schedule();
    return () => {
      this.emitter.off("changed", fn);
      if (this.emitter.listenerCount("changed") === 0) this.stop();
    };
  }

  private schedule() {
    this.timer = setTimeout(() => void this.tick(), this.everyMs);
    this.timer.unref();
  }

  // The last fingerprint is kept: a page that reconnects (a new stream) is told at the first look
  // of anything that changed while no one listened, instead of taking that look as the baseline.
  private stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const print = await this.fingerprint();
      if (this.last !== null && print !== this.last) this.emitter.emit("changed");
      this.last = print;
    } catch (err) {
      log.debug("inbox watch: a look failed; the next one tries again", { err: String(err) });
    } finally {
      this.running = false;
      if (this.emitter.listenerCount("changed") > 0) this.schedule();
      else this.timer = null;
    }
  }

  async fingerprint(): Promise<string> {
    const [own] = await this.db.query<Record<string, string>>(DB_FINGERPRINT);
    const parts = [own.drafts, own.approvals, own.votes, own.decisions];
    if (this.getBank) {
      const bank = await this.getBank();
      const accounts = await this.accountNumbers(bank);
      const begin = paymentWindowBegin(bankNow());
      const newest = await Promise.all(
        accounts.map(async (account_number) => {
          const r = await bank.call("listPayments", {
            query: { account_number, begin_date: begin, sort_order: "desc", page_size: 1, page_number: 1 },
          });
          if (!r.ok) return "?";
          const p = r.data[0];
          return p ? `${p.payment_id}@${p.time_stamp}` : "";
        }),
      );
      parts.push(...newest);
    }
    return parts.join("|");
  }

  private async accountNumbers(bank: BankClient): Promise<string[]> {
    if (this.accounts && Date.now() - this.accounts.at < ACCOUNTS_TTL_MS) return this.accounts.list;
    const r = await bank.call("accountList");
    if (!r.ok) return this.accounts?.list ?? [];
    const list = r.data.ResponseData.flatMap((d) => d.CUSTACCT.map((a) => a.ACTNBR));
    this.accounts = { at: Date.now(), list };
    return list;
  }

  close(): void {
    this.emitter.removeAllListeners();
    this.stop();
  }
}

// One watch per process, kept on globalThis: route bundles may load this module more than once.
const held = processSingleton<InboxWatch>(
  "treasury.inboxWatch",
  async () => new InboxWatch(await getDashboardDb(), getBankClient, config().inboxWatchMs),
);
export const getInboxWatch = held.get;
export const setInboxWatch = held.set;
