/**
 * Writes operation-log rows (spec "Limits"): synchronously when `Logging:OpLog:Sync` is true, else through a
 * bounded in-memory queue flushed in batches of 200 by one background loop. When the queue is full the oldest
 * row is dropped (the newest operations are the ones an operator investigates first), with a warning once the
 * queue passes 80 % of its capacity and a count of what was dropped. At shutdown `drain` flushes what is queued
 * within the given time (5 s by the spec) before the pools close.
 *
 * Flushes are paced: the first row after a quiet spell goes out on the next turn of the event loop, later ones
 * wait until `flushIntervalMs` has passed since the previous flush began, or until a full batch is queued. Under
 * load this turns many one- or two-row INSERTs (each paying the statement build, prepare and commit; on SQLite
 * ~100 µs for one row against ~10 µs a row in a batch of 200, all of it on the event loop) into few full ones.
 * A batch never holds more than `batchSize` rows.
 */
import type { NewOpLog, OpLogRepository } from '@svc/data';
import type { Logger } from '@svc/kernel';

/** Rows per flush (spec). */
export const OP_LOG_BATCH_SIZE = 200;
/** Fill ratio from which a warning is logged (once per crossing), so an operator hears before rows are lost. */
export const OP_LOG_WARN_RATIO = 0.8;
/** Longest a queued row waits for a flush when the previous one began less than this long ago. */
export const OP_LOG_FLUSH_INTERVAL_MS = 100;
/** Spec: time given to the queue at shutdown. */
export const OP_LOG_DRAIN_MS = 5_000;

export interface OpLogWriterOptions {
  sink: Pick<OpLogRepository, 'insertMany'>;
  logger: Logger;
  /** Write each row before the request answers. @default false */
  sync?: boolean;
  /** Rows the queue holds before dropping the oldest. @default 10000 */
  capacity?: number;
  /** @default 200 */
  batchSize?: number;
  /** Least time between the starts of two flushes unless a full batch is queued. @default 100 */
  flushIntervalMs?: number;
}

export interface OpLogWriterStats {
  queued: number;
  written: number;
  dropped: number;
  failed: number;
}

export interface OpLogWriter {
  /** Queues the row (async mode) or writes it (sync mode; a write failure is logged, not thrown). */
  write(entry: NewOpLog): Promise<void>;
  /** Flushes what is queued; resolves when empty or after `timeoutMs` (then reports what was left). */
  drain(timeoutMs?: number): Promise<OpLogWriterStats>;
  stats(): OpLogWriterStats;
}

export function createOpLogWriter(options: OpLogWriterOptions): OpLogWriter {
  const { sink, logger } = options;
  const capacity = Math.max(1, options.capacity ?? 10_000);
  const batchSize = Math.max(1, options.batchSize ?? OP_LOG_BATCH_SIZE);
  const warnAt = Math.max(1, Math.floor(capacity * OP_LOG_WARN_RATIO));
  let queue: NewOpLog[] = [];
  let head = 0;
  let written = 0;
  let dropped = 0;
  let failed = 0;
  let warned = false;
  let flushing: Promise<void> | undefined;
  let paced: NodeJS.Timeout | undefined;
  let lastFlushAt = Number.NEGATIVE_INFINITY;
  let draining = false;
  const interval = Math.max(0, options.flushIntervalMs ?? OP_LOG_FLUSH_INTERVAL_MS);
  const size = () => queue.length - head;

  async function insert(rows: NewOpLog[]): Promise<void> {
    try {
      await sink.insertMany(rows);
      written += rows.length;
    } catch (error) {
      failed += rows.length;
      logger.error(`Could not write ${rows.length} operation-log row(s).`, { error });
    }
  }

  async function flushLoop(): Promise<void> {
    while (size() > 0) {
      const batch = queue.slice(head, head + batchSize);
      head += batch.length;
      if (head >= queue.length) {
        queue = [];
        head = 0;
      } else if (head > 4096) {
        queue = queue.slice(head);
        head = 0;
      }
      await insert(batch);
    }
    if (warned && size() < warnAt / 2) warned = false;
  }

  /** Starts a flush on the next turn of the event loop (one at a time). */
  function flushSoon(): void {
    if (paced) {
      clearTimeout(paced);
      paced = undefined;
    }
    flushing ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => {
        lastFlushAt = performance.now();
        return flushLoop();
      })
      .finally(() => {
        flushing = undefined;
        if (size() > 0) schedule();
      });
  }

  /** A flush now when a full batch waits (or at shutdown), else once the interval since the last one is over. */
  function schedule(): void {
    if (flushing) return;
    const wait = lastFlushAt + interval - performance.now();
    if (draining || wait <= 0 || size() >= batchSize) {
      flushSoon();
      return;
    }
    paced ??= setTimeout(() => {
      paced = undefined;
      flushSoon();
    }, wait);
  }

  const stats = (): OpLogWriterStats => ({ queued: size(), written, dropped, failed });

  if (options.sync) {
    return {
      write: (entry) => insert([entry]),
      drain: async () => stats(),
      stats,
    };
  }

  return {
    async write(entry) {
      if (size() >= capacity) {
        head++;
        dropped++;
        if (dropped === 1 || dropped % 1000 === 0) {
          logger.warn(`Operation-log queue full (${capacity}): dropped the oldest row(s).`, { dropped });
        }
      }
      queue.push(entry);
      if (!warned && size() >= warnAt) {
        warned = true;
        logger.warn(
          `Operation-log queue is above ${Math.round(OP_LOG_WARN_RATIO * 100)} % of its capacity.`,
          {
            queued: size(),
            capacity,
          },
        );
      }
      schedule();
    },

    async drain(timeoutMs = OP_LOG_DRAIN_MS) {
      const deadline = Date.now() + timeoutMs;
      draining = true;
      while ((size() > 0 || flushing) && Date.now() < deadline) {
        if (!flushing) flushSoon();
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        });
        await Promise.race([flushing, timeout]);
        clearTimeout(timer);
      }
      draining = false;
      const left = stats();
      if (left.queued > 0)
        logger.warn(`Shutdown: ${left.queued} operation-log row(s) were not written in time.`);
      return left;
    },

    stats,
  };
}
