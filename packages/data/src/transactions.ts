/**
 * What every dialect's `transaction` shares: which handles are open transactions (a nested call becomes a
 * savepoint and never retries), and the re-run of a whole transaction the database rolled back to break a
 * deadlock or to keep transactions serializable. Such a victim did nothing (every statement of it, trigger
 * writes included, was undone), so running its callback again is correct as long as the callback only works on
 * the database; one that also acts outside it (sends, publishes, counts in memory) opts out with `retry: false`.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { QueryDb, TransactionOptions } from './dialect.js';
import { isTransactionConflict } from './errors.js';

/**
 * Runs of a transaction before a conflict is reported: a victim usually wins its second run, because the winner
 * of the conflict has committed meanwhile; a third covers a second writer arriving. More would only hold a
 * request (and its pooled connection) longer under a hot spot that clients had better back off from.
 */
export const TRANSACTION_ATTEMPTS = 3;

/**
 * Upper bound of the pause before the second run, in milliseconds (doubled before each later run). The pause is
 * random ("full jitter"), so two victims of one conflict do not start again in step and meet again; nothing
 * depends on its length for correctness.
 */
export const TRANSACTION_BACKOFF_MS = 20;

/** Handles currently given to a transaction callback (outer or nested), so a call on one nests. */
const openHandles = new WeakSet<object>();

/** Whether `db` is a handle inside an open transaction (a call on it must become a savepoint). */
export function isTransactionHandle(db: QueryDb): boolean {
  return openHandles.has(db);
}

/** Runs `work` on `tx`, marked as an open transaction while it runs. */
export async function insideTransaction<T>(tx: QueryDb, work: (tx: QueryDb) => Promise<T>): Promise<T> {
  openHandles.add(tx);
  try {
    return await work(tx);
  } finally {
    openHandles.delete(tx);
  }
}

/**
 * Runs `attempt` (one whole transaction: begin, work, commit) and runs it again after a short random pause while
 * it fails as a {@link isTransactionConflict conflict}, {@link TRANSACTION_ATTEMPTS} times in all; the last
 * failure is thrown as it is (the HTTP layer answers it 503 with 50003). Any other failure is thrown at once.
 */
export async function retryingConflicts<T>(
  attempt: () => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  if (options.retry === false) return attempt();
  for (let run = 1; ; run++) {
    try {
      return await attempt();
    } catch (error) {
      if (run >= TRANSACTION_ATTEMPTS || !isTransactionConflict(error)) throw error;
      await delay(Math.random() * TRANSACTION_BACKOFF_MS * 2 ** (run - 1));
    }
  }
}

/**
 * `transaction` of a dialect whose drizzle handle runs transactions itself (PostgreSQL, MySQL/MariaDB, SQL
 * Server): on a transaction's handle drizzle makes a savepoint, which runs once; the outermost transaction is
 * re-run on a conflict.
 */
export function drizzleTransaction<T>(
  db: QueryDb,
  work: (tx: QueryDb) => Promise<T>,
  options?: TransactionOptions,
): Promise<T> {
  const runner = db as unknown as { transaction<R>(fn: (tx: QueryDb) => Promise<R>): Promise<R> };
  const run = () => runner.transaction((tx) => insideTransaction(tx, work));
  return isTransactionHandle(db) ? run() : retryingConflicts(run, options);
}
