// Autovacuum for the embedded database. PGlite runs no background workers, so nothing would ever
// ANALYZE or VACUUM its tables: the statements inside the bank's SQL functions keep the plans
// made when the tables were empty (seen: a SEN transfer took 0.9 ms of CPU on a fresh bank and
// 2.2 ms 9,000 transfers later, 0.6 ms again after one ANALYZE), and dead row versions pile up.
//
// Every pass holds the one connection, so it does only what keeps plans and tables healthy:
// - VACUUM a table once 50 rows + 20% of it are dead (autovacuum's threshold);
// - ANALYZE a table once 50 rows + 10% of it changed (autovacuum's threshold) and it holds more
//   than twice the rows it had when last measured (or was never measured). The planner scales
//   row counts by the table's current size, so a table measured once with real data keeps fair
//   estimates as it grows; what misleads it is a table measured empty or tiny. Updates that do
//   not change the size (balances) need no new statistics.
// Statements are spaced out so that the bank's own work runs between them. On a PostgreSQL
// server, autovacuum itself does this and the bank leaves it alone.
import type { Bank } from "../context.ts";

export const MAINTENANCE_INTERVAL_MS = 5_000;
/** Pause between two maintenance statements of a pass. */
const BETWEEN_STATEMENTS_MS = 25;

interface TableStat {
  relname: string;
  live: number;
  dead: number;
  changed: number;
  /** Rows when last vacuumed or analyzed; -1 when never. */
  measured: number;
}

/** One pass: the tables past a threshold, analyzed or vacuumed one at a time. Returns what ran. */
export async function maintainTables(bank: Pick<Bank, "db">): Promise<string[]> {
  const stats = await bank.db.query<TableStat>(
    `SELECT s.relname, s.n_live_tup AS live, s.n_dead_tup AS dead,
            s.n_mod_since_analyze AS changed, c.reltuples::float8 AS measured
     FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.schemaname = 'public'`,
  );
  const work: { table: string; vacuum: boolean; analyze: boolean }[] = [];
  for (const t of stats) {
    const vacuum = t.dead > 50 + 0.2 * t.live;
    const analyze = t.changed > 50 + 0.1 * t.live && (t.measured < 0 || t.live > 2 * t.measured + 50);
    if (vacuum || analyze) work.push({ table: t.relname, vacuum, analyze });
  }
  if (!work.length) return [];
  // A tenth of the default sample (3,000 rows instead of 30,000): enough for the index look-ups
  // the bank's statements plan, and ten times shorter a pause (measured: 20 ms instead of
  // 170-200 ms on a 450,000-row ledger).
  await bank.db.query("SET default_statistics_target = 10");
  const done: string[] = [];
  for (const w of work) {
    if (done.length) await new Promise((r) => setTimeout(r, BETWEEN_STATEMENTS_MS));
    // Names come from the catalog, quoted all the same.
    const table = `"${w.table.replaceAll('"', '""')}"`;
    const verb = w.vacuum ? (w.analyze ? "VACUUM ANALYZE" : "VACUUM") : "ANALYZE";
    await bank.db.query(`${verb} ${table}`);
    done.push(`${verb.toLowerCase()} ${w.table}`);
  }
  return done;
}

export function startTableMaintenance(bank: Bank, intervalMs = MAINTENANCE_INTERVAL_MS): void {
  if (bank.db.kind !== "pglite") return;
  let pass: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (pass) return;
    pass = maintainTables(bank)
      .then((done) => {
        if (done.length) bank.log.debug("table maintenance", { done });
      })
      .catch((err) => bank.log.error("table maintenance failed", { err }))
      .finally(() => {
        pass = null;
      });
  }, intervalMs);
  timer.unref();
  bank.onClose(async () => {
    clearInterval(timer);
    await pass;
  });
}
