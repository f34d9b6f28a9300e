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
 *
 * Durability (contract §10): with a `spill`, a batch the database refuses is retried with backoff
 * (`retryDelaysMs`), then appended to the spill files under `{ContentRoot}/data/`; while the database keeps
 * failing, later batches get one attempt each before they are spilled (memory stays bounded), and a full queue
 * spills its oldest rows instead of dropping them. The spill is replayed after the next successful write, every
 * `replayIntervalMs` while it holds rows, and at start; at shutdown `drain` spills what it could not write in
 * time. Only the spill's cap drops rows (oldest first, counted and logged). See spill.ts for the guarantee.
 */
import type { NewOpLog, OpLogRepository } from '@svc/data';
import type { Logger } from '@svc/kernel';
import { UNSERIALIZABLE } from '../masking.js';
import { opLogParamsText, type PendingParams } from './params.js';
import { openSpill, type Spill, type SpillStats } from './spill.js';

/** Rows per flush (spec). */
export const OP_LOG_BATCH_SIZE = 200;
/** Fill ratio from which a warning is logged (once per crossing), so an operator hears before rows are lost. */
export const OP_LOG_WARN_RATIO = 0.8;
/** Longest a queued row waits for a flush when the previous one began less than this long ago. */
export const OP_LOG_FLUSH_INTERVAL_MS = 100;
/** Spec: time given to the queue at shutdown. */
export const OP_LOG_DRAIN_MS = 5_000;
/** Waits before the retries of a failed batch: a blip (a failover, a lock) passes within a few seconds. */
export const OP_LOG_RETRY_DELAYS_MS: readonly number[] = [100, 500, 2_000];
/** How often a non-empty spill is offered to the database again while no write succeeds. */
export const OP_LOG_REPLAY_INTERVAL_MS = 5_000;

/** Where and how much a durable writer spills. */
export interface SpillConfig<T> {
  /** Directory (`{ContentRoot}/data`). */
  dir: string;
  /** File-name prefix of the segments. */
  name: string;
  /** `Logging:OpLog:SpillMaxMb` in bytes. */
  maxBytes: number;
  /** A parsed spill line back into a row. */
  revive(value: unknown): T;
}

export interface DurableLogWriterOptions<T> {
  sink: { insertMany(rows: readonly T[]): Promise<unknown> };
  logger: Logger;
  /** What the log is called in messages. @default 'Operation-log' */
  label?: string;
  /** Write each row before the request answers. @default false */
  sync?: boolean;
  /** Rows the queue holds before spilling (or, without a spill, dropping) the oldest. @default 10000 */
  capacity?: number;
  /** @default 200 */
  batchSize?: number;
  /** Least time between the starts of two flushes unless a full batch is queued. @default 100 */
  flushIntervalMs?: number;
  /** Where rows go that cannot be written. @default none: a failed batch is logged and lost */
  spill?: SpillConfig<T>;
  /** Indexes of the rows already stored, so a replay never inserts one twice. @default none (at least once) */
  existing?: (rows: readonly T[]) => Promise<ReadonlySet<number>>;
  /** Waits between the attempts of one batch. @default OP_LOG_RETRY_DELAYS_MS */
  retryDelaysMs?: readonly number[];
  /** @default OP_LOG_REPLAY_INTERVAL_MS */
  replayIntervalMs?: number;
  /** Rows per replayed INSERT (one statement, so a batch commits whole). @default 150 */
  replayBatchSize?: number;
  /** The wait between attempts (tests pass one they control). @default a timer */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Finishes queued rows in place before they are written or spilled, a batch at a time (work that costs less
   * in a loop over a batch than in each request's turn). It is called again on rows it already finished, which
   * it must leave as they are, and must not throw. @default none
   */
  prepare?: (rows: readonly T[]) => void;
}

export interface OpLogWriterOptions
  extends Omit<DurableLogWriterOptions<OpLogEntry>, 'sink' | 'spill' | 'prepare'> {
  sink: Pick<OpLogRepository, 'insertMany'>;
  /** Spill directory, prefix and cap (rows are revived with their dates). @default none */
  spill?: Omit<SpillConfig<OpLogEntry>, 'revive'>;
}

/**
 * An operation-log row as it is queued: `pendingParams`, when set, are the parts of its parameter text, written
 * into `paramJson` when its batch is written or spilled ({@link finishOpLogRows}). Formatting a few hundred rows
 * in one loop costs about a third of formatting each in its request's turn, among the request's own work (timed
 * inside the reference host under bench/oplog.mjs's update: ~3 µs against ~10 µs for a small JSON body).
 */
export interface OpLogEntry extends NewOpLog {
  pendingParams?: PendingParams | undefined;
}

/** Writes the pending parameter texts of these rows (rows without any are left as they are). */
export function finishOpLogRows(rows: readonly OpLogEntry[]): void {
  for (const row of rows) {
    const pending = row.pendingParams;
    if (pending === undefined) continue;
    row.pendingParams = undefined;
    try {
      row.paramJson = opLogParamsText(pending, pending.maxChars);
    } catch {
      row.paramJson = JSON.stringify(UNSERIALIZABLE);
    }
  }
}

export interface OpLogWriterStats {
  /** Rows in memory, not yet written. */
  queued: number;
  written: number;
  /** Rows lost: queue overflow without a spill, a failed batch without a spill, or beyond the spill cap. */
  dropped: number;
  /** Rows of failed attempts (a retried row counts once per failure). */
  failed: number;
  /** Rows waiting in the spill files. */
  spilled: number;
  /** Rows moved to the spill since start. */
  spilledTotal: number;
  /** Rows written back from the spill since start. */
  replayed: number;
  /** True from a batch that failed every attempt until a write succeeds again. */
  failing: boolean;
}

export interface DurableLogWriter<T> {
  /** Queues the row (async mode) or writes it (sync mode; a failure spills it, never throws). */
  write(entry: T): Promise<void>;
  /**
   * Queues the row now and answers true (async mode), without the promise of `write`: the operation log
   * records a synchronous request without making it asynchronous. Answers false in sync mode, where the
   * caller awaits `write`.
   */
  enqueue(entry: T): boolean;
  /** Flushes what is queued; resolves when empty or after `timeoutMs`, spilling what was left. */
  drain(timeoutMs?: number): Promise<OpLogWriterStats>;
  /** Offers the spill to the database now (at start, and what the timer does); answers the rows written. */
  replay(): Promise<number>;
  stats(): OpLogWriterStats;
  /** The pacing in effect: the least time between the starts of two flushes while rows keep coming (ms; 0 in sync mode). */
  readonly flushIntervalMs: number;
  /** Stops the replay timer (at shutdown, after `drain`). */
  close(): void;
}

export type OpLogWriter = DurableLogWriter<OpLogEntry>;

/** A spilled operation-log row back into a row: its time was written as epoch milliseconds or an ISO string. */
export function reviveOpLog(value: unknown): OpLogEntry {
  const row = value as OpLogEntry & { createTime: number | string };
  return { ...row, createTime: new Date(row.createTime) };
}

export function createOpLogWriter(options: OpLogWriterOptions): OpLogWriter {
  const { spill, ...rest } = options;
  return createDurableLogWriter<OpLogEntry>({
    ...rest,
    prepare: finishOpLogRows,
    ...(spill ? { spill: { ...spill, revive: reviveOpLog } } : {}),
  });
}

/** The driver's own error under a query builder's wrapper (whose message is only the failed SQL). */
function rootCause(error: unknown): unknown {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof Error ? cause : error;
}

const timerSleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

export function createDurableLogWriter<T>(options: DurableLogWriterOptions<T>): DurableLogWriter<T> {
  const { sink, logger, prepare } = options;
  const label = options.label ?? 'Operation-log';
  const retryDelays = options.retryDelaysMs ?? OP_LOG_RETRY_DELAYS_MS;
  const sleep = options.sleep ?? timerSleep;
  const replayBatch = Math.max(1, options.replayBatchSize ?? 150);
  const replayEvery = Math.max(1, options.replayIntervalMs ?? OP_LOG_REPLAY_INTERVAL_MS);
  const spill: Spill<T> | undefined = options.spill ? openSpill({ ...options.spill, logger }) : undefined;
  let failing = false;
  let spilledTotal = 0;
  let replaying: Promise<number> | undefined;
  let replayTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const capacity = Math.max(1, options.capacity ?? 10_000);
  const batchSize = Math.max(1, options.batchSize ?? OP_LOG_BATCH_SIZE);
  const warnAt = Math.max(1, Math.floor(capacity * OP_LOG_WARN_RATIO));
  /**
   * The rows not yet taken by a flush, oldest first. A flush takes its batch out of the array (`splice`), so no row
   * stays reachable from it once its batch is written: with a read index instead (the array trimmed only every few
   * thousand rows), written rows stayed referenced by this long-lived array for about a third of a second under
   * load, survived two young collections and were promoted to the old generation, a row's worth of copying and
   * later marking for every logged write (bench/oplog.mjs; docs/performance.md). The array itself is kept, never
   * replaced by a new literal: a new `[]` starts as an array of small integers, and the first row pushed into it
   * deoptimised the request's optimised code that queues rows.
   */
  const queue: T[] = [];
  let written = 0;
  let dropped = 0;
  let failed = 0;
  let warned = false;
  let flushing: Promise<void> | undefined;
  let paced: NodeJS.Timeout | undefined;
  let lastFlushAt = Number.NEGATIVE_INFINITY;
  let draining = false;
  /** The batch an in-flight flush holds: spilled at the drain deadline if its INSERT has not answered. */
  let inFlight: T[] | undefined;
  /** Batches the drain already spilled: a late answer of their INSERT must not spill them again. */
  const abandoned = new WeakSet<T[]>();
  const interval = Math.max(0, options.flushIntervalMs ?? OP_LOG_FLUSH_INTERVAL_MS);
  const size = () => queue.length;

  function toSpill(rows: T[]): void {
    if (rows.length === 0) return;
    if (!spill) {
      dropped += rows.length;
      return;
    }
    prepare?.(rows);
    try {
      spill.append(rows);
      spilledTotal += rows.length;
    } catch (error) {
      dropped += rows.length;
      logger.error(`Could not spill ${rows.length} ${label} row(s); they are lost.`, { error });
    }
    armReplay();
  }

  /** While the spill holds rows, it is offered to the database every `replayIntervalMs`. */
  function armReplay(): void {
    if (closed || replayTimer || !spill || spill.stats().pending === 0) return;
    replayTimer = setTimeout(() => {
      replayTimer = undefined;
      void replay().finally(armReplay);
    }, replayEvery);
    replayTimer.unref();
  }

  function replay(): Promise<number> {
    if (!spill || spill.stats().pending === 0) return Promise.resolve(0);
    replaying ??= spill
      .replay(
        async (rows) => {
          await sink.insertMany(rows);
          written += rows.length;
        },
        replayBatch,
        options.existing,
      )
      .then(
        (n) => {
          if (failing) logger.info(`${label} writes succeed again.`);
          failing = false;
          return n;
        },
        (error: unknown) => {
          failing = true;
          logger.warn(`${label} spill replay stopped: the database still refuses rows.`, {
            error: rootCause(error),
          });
          return 0;
        },
      )
      .finally(() => {
        replaying = undefined;
      });
    return replaying;
  }

  /** One batch: attempts with backoff (one attempt while the database is known to fail), then the spill. */
  async function insert(rows: T[]): Promise<void> {
    prepare?.(rows);
    const attempts = failing || draining ? 1 : retryDelays.length + 1;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await sleep(retryDelays[attempt - 1] ?? 0);
      try {
        await sink.insertMany(rows);
        written += rows.length;
        if (failing || (spill && spill.stats().pending > 0)) {
          if (failing) logger.info(`${label} writes succeed again.`);
          failing = false;
          void replay();
        }
        return;
      } catch (error) {
        failed += rows.length;
        if (attempt === attempts - 1) {
          if (!failing) {
            logger.error(`Could not write ${rows.length} ${label} row(s).`, { error: rootCause(error) });
          }
          failing = true;
        }
      }
    }
    if (abandoned.has(rows)) return;
    if (spill) {
      toSpill(rows);
    } else {
      dropped += rows.length;
    }
  }

  async function flushLoop(): Promise<void> {
    while (size() > 0) {
      const batch = queue.splice(0, batchSize);
      inFlight = batch;
      try {
        await insert(batch);
      } finally {
        inFlight = undefined;
      }
      // A part batch that queued meanwhile waits for the pace (`finally` below schedules it): under load every
      // INSERT is then a full one, not a full one trailed by the few rows that came in while it was being written.
      if (!draining && size() < batchSize) break;
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
    if (draining || size() >= batchSize) {
      flushSoon();
      return;
    }
    // Called for every queued row: while a paced flush is set, there is nothing to decide (not even the time).
    if (paced) return;
    const wait = lastFlushAt + interval - performance.now();
    if (wait <= 0) {
      flushSoon();
      return;
    }
    paced = setTimeout(() => {
      paced = undefined;
      flushSoon();
    }, wait);
  }

  const spillStats = (): SpillStats | undefined => spill?.stats();
  const stats = (): OpLogWriterStats => {
    const s = spillStats();
    return {
      queued: size(),
      written,
      dropped: dropped + (s?.dropped ?? 0),
      failed,
      spilled: s?.pending ?? 0,
      spilledTotal,
      replayed: s?.replayed ?? 0,
      failing,
    };
  };
  const close = () => {
    closed = true;
    if (replayTimer) clearTimeout(replayTimer);
    replayTimer = undefined;
  };

  // What an earlier run left in the spill goes back first (a failure leaves it for the timer).
  if (spill && spill.stats().pending > 0) {
    logger.info(`${label}: ${spill.stats().pending} spilled row(s) from an earlier run to replay.`);
    void replay().finally(armReplay);
  }

  if (options.sync) {
    return {
      // Nothing is queued in sync mode, so nothing is paced.
      flushIntervalMs: 0,
      write: (entry) => insert([entry]),
      enqueue: () => false,
      drain: async () => stats(),
      replay,
      stats,
      close,
    };
  }

  /** Queues one row (async mode): the oldest batch spilled or the oldest row dropped when the queue is full. */
  function push(entry: T): void {
    if (size() >= capacity) {
      if (spill) {
        // The oldest batch goes to the spill in one append: a full queue means the database lags behind the
        // requests, and an append per row (open, write, close) would cost more than the insert it stands for.
        toSpill(queue.splice(0, batchSize));
      } else {
        queue.shift();
        dropped++;
        if (dropped === 1 || dropped % 1000 === 0) {
          logger.warn(`${label} queue full (${capacity}): dropped the oldest row(s).`, { dropped });
        }
      }
    }
    queue.push(entry);
    if (!warned && size() >= warnAt) {
      warned = true;
      logger.warn(`${label} queue is above ${Math.round(OP_LOG_WARN_RATIO * 100)} % of its capacity.`, {
        queued: size(),
        capacity,
      });
    }
    schedule();
  }

  return {
    flushIntervalMs: interval,

    async write(entry) {
      push(entry);
    },

    enqueue(entry) {
      push(entry);
      return true;
    },

    async drain(timeoutMs = OP_LOG_DRAIN_MS) {
      const deadline = Date.now() + timeoutMs;
      draining = true;
      // A replay under way is waited for too: the pools close after the drain.
      while ((size() > 0 || flushing || replaying) && Date.now() < deadline) {
        if (!flushing && size() > 0) flushSoon();
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        });
        await Promise.race([flushing ?? replaying, timeout]);
        clearTimeout(timer);
      }
      draining = false;
      const left = size();
      if (spill && (left > 0 || inFlight)) {
        // Out of time: what is queued, and the batch whose INSERT has not answered, go to the spill. The
        // replay's lookup of stored rows keeps an in-flight batch that did commit from being written twice.
        if (inFlight) abandoned.add(inFlight);
        const rest = [...(inFlight ?? []), ...queue.splice(0)];
        toSpill(rest);
        logger.warn(`Shutdown: ${rest.length} ${label} row(s) were spilled, not written.`);
      } else if (left > 0) {
        logger.warn(`Shutdown: ${left} ${label} row(s) were not written in time.`);
      }
      return stats();
    },

    replay,
    stats,
    close,
  };
}
