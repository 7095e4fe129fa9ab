// SEN transfers into the ledger. Each transfer is decided by the sen_transfer SQL function (one
// statement: idempotency record, both rows locked, checks, balances, ledger entries, outbox),
// which answers with a result code that lib/bank-api/transfer-outcomes.ts turns into words.
//
// Transfers arriving while every batch slot is busy are committed together (group commit):
// sen_transfer_batch runs them one after another in one transaction, so a busy bank pays one
// statement, one round trip and one commit for many transfers instead of one each. Nothing
// waits for a batch to fill: a transfer that finds a free slot goes at once, alone, so a quiet
// bank answers exactly as fast as before. Each transfer keeps its own answer; if a batch fails as
// a whole (which no business rejection does: those are answers, not errors), its transfers are
// retried one by one, so one bad transfer fails alone and none is applied twice (the batch was
// rolled back). On PostgreSQL a few batches run side by side, one per pooled connection; PGlite
// has one connection, so one slot (there the saving is PGlite's cost per statement: measured,
// 0.29 ms of CPU per transfer in batches of 32 against 0.52 ms one by one).
import type { TransferAnswer } from "../../lib/bank-api/transfer-outcomes.ts";
import type { BankDb } from "../db/client.ts";

/**
 * One SEN transfer, as the SQL functions read it: the same JSON value on the single path
 * (sen_transfer) and in the batch's array (sen_transfer_batch).
 */
export interface TransferRecord {
  customer: number;
  from: string;
  to: string;
  cents: number;
  /** Idempotency-Key, or null without one. */
  key: string | null;
  /** Hash of the canonical request, stored with the key. */
  hash: string | null;
  /** The bank's clock, an ISO instant. */
  now: string;
  /** Business date of `now` (YYYY-MM-DD). */
  date: string;
  /** TRANDESC, TRANDESCS, TRANDESC3..11 of the debit item. */
  fromDesc: string[];
  /** The same of the credit item. */
  toDesc: string[];
  serial1: string;
  serial2: string;
  /** The transfer id both ledger entries share. */
  id: string;
}

export interface TransferExecutor {
  execute(t: TransferRecord): Promise<TransferAnswer>;
  /** Batches committed so far (a transfer that went alone counts as one), the largest, and how many failed as a whole. */
  stats(): { batches: number; largest: number; fallbacks: number };
}

export interface BatchOptions {
  /** Batches in flight at once (each holds one pooled connection). */
  slots: number;
  /** Most transfers in one batch. */
  maxBatch: number;
  /**
   * Start a free slot's batch at the end of the event loop's turn rather than at once, so that
   * every request read in that turn joins it. For a database that runs inside this thread
   * (PGlite): while it works nothing else runs, so requests never find the slot busy and would
   * otherwise go one by one.
   */
  gather: boolean;
  /** Told why a batch failed as a whole (its transfers are then retried one by one). */
  onBatchError?: (err: unknown, size: number) => void;
  /** Told the size of each batch sent (1 for a transfer that went alone). */
  onBatch?: (size: number) => void;
}

function single(db: BankDb, t: TransferRecord): Promise<TransferAnswer> {
  return db
    .prepared<{ r: TransferAnswer }>("sen_transfer", "SELECT sen_transfer($1::jsonb) AS r", [
      JSON.stringify(t),
    ])
    .then((rows) => rows[0].r);
}

interface Waiting {
  input: TransferRecord;
  resolve(r: TransferAnswer): void;
  reject(e: unknown): void;
}

export function createTransferExecutor(db: BankDb, opts: Partial<BatchOptions> = {}): TransferExecutor {
  const slots = Math.max(1, opts.slots ?? 4);
  const maxBatch = Math.max(1, opts.maxBatch ?? 32);
  const gather = opts.gather ?? false;
  const queue: Waiting[] = [];
  let inFlight = 0;
  let pumpScheduled = false;
  const counts = { batches: 0, largest: 0, fallbacks: 0 };

  async function run(batch: Waiting[]): Promise<void> {
    counts.batches++;
    counts.largest = Math.max(counts.largest, batch.length);
    opts.onBatch?.(batch.length);
    if (batch.length === 1) {
      const [w] = batch;
      await single(db, w.input).then(w.resolve, w.reject);
      return;
    }
    let results: TransferAnswer[];
    try {
      const rows = await db.prepared<{ r: TransferAnswer[] }>(
        "sen_transfer_batch",
        "SELECT sen_transfer_batch($1::jsonb) AS r",
        [JSON.stringify(batch.map((w) => w.input))],
      );
      results = rows[0].r;
    } catch (err) {
      // Rolled back as a whole: each transfer again, alone, with its own outcome.
      counts.fallbacks++;
      opts.onBatchError?.(err, batch.length);
      await Promise.all(batch.map((w) => single(db, w.input).then(w.resolve, w.reject)));
      return;
    }
    batch.forEach((w, i) => {
      w.resolve(results[i]);
    });
  }

  function pump(): void {
    while (inFlight < slots && queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      inFlight++;
      run(batch).finally(() => {
        inFlight--;
        schedulePump();
      });
    }
  }

  function schedulePump(): void {
    if (!gather) {
      pump();
      return;
    }
    if (pumpScheduled) return;
    pumpScheduled = true;
    setImmediate(() => {
      pumpScheduled = false;
      pump();
    });
  }

  return {
    execute(input) {
      return new Promise<TransferAnswer>((resolve, reject) => {
        queue.push({ input, resolve, reject });
        schedulePump();
      });
    },
    stats: () => ({ ...counts }),
  };
}
