/**
 * Fire delivery. In-process: one timer per queued fire (a single instance on the memory cache needs nothing
 * else). BullMQ: delayed jobs on the cache's Redis with the fire id as the BullMQ job id, so the same fire
 * queued by several instances is one job; the worker's lock and stalled-job check hand a dead instance's fires
 * to a live one.
 */

import { loadWithPeers, type PeerNeed } from '@svc/data';
import type { Logger } from '@svc/kernel';
import type { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Dispatcher } from './engine.js';
import { loadJobLibraries } from './libraries.js';
import type { Fire } from './types.js';

/** Timers of one process; a fire id already waiting is not queued twice. */
export function createInProcessDispatcher(now: () => Date): Dispatcher {
  const timers = new Map<string, NodeJS.Timeout>();
  let process: ((fire: Fire) => Promise<void>) | undefined;
  return {
    kind: 'in-process',
    redeliversLostFires: false,
    async start(run) {
      process = run;
    },
    async enqueue(fire) {
      if (!process || timers.has(fire.id)) return;
      const run = process;
      const delay = Math.max(0, fire.scheduledTime - now().getTime());
      const timer = setTimeout(() => {
        timers.delete(fire.id);
        void run(fire).catch(() => {});
      }, delay);
      timer.unref();
      timers.set(fire.id, timer);
    },
    async stop() {
      process = undefined;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

export interface BullMqDispatcherOptions {
  /** bullmq and ioredis with what selected them (libraries.ts): checked before they are loaded. */
  libraries: readonly PeerNeed[];
  redisUrl: string;
  /** Key prefix of the queue (the cache key prefix without its trailing colon, plus `:bull`). */
  prefix: string;
  queueName: string;
  stalledIntervalMs: number;
  lockDurationMs: number;
  /** Fires processed at the same time by this instance. @default 64 */
  concurrency?: number;
  now: () => Date;
  logger: Logger;
}

const READY_WAIT_MS = 3000;
const ENQUEUE_TIMEOUT_MS = 3000;
/** Longest wait for the worker and the queue to close (both at once) before their connections are cut. */
const CLOSE_WAIT_MS = 3000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer from Redis within ${ms} ms`)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A BullMQ queue and worker on the cache Redis. */
export function createBullMqDispatcher(options: BullMqDispatcherOptions): Dispatcher {
  // The worker's connection waits for Redis (BullMQ needs `maxRetriesPerRequest: null` there); the queue's fails
  // fast, so that an HTTP write or a scan never hangs while Redis is down (the next scan queues the fire).
  // BullMQ and ioredis load with the first start: a host on the in-process cache never pays for them.
  const connect = (RedisClient: typeof Redis, failFast: boolean) => {
    const redis = new RedisClient(
      options.redisUrl,
      failFast ? { maxRetriesPerRequest: 1, enableOfflineQueue: false } : { maxRetriesPerRequest: null },
    );
    redis.on('error', (error) => options.logger.debug('Job queue Redis error', { error: String(error) }));
    return redis;
  };
  let queueConnection: Redis | undefined;
  let workerConnection: Redis | undefined;
  let queue: Queue | undefined;
  let worker: Worker | undefined;
  return {
    kind: 'bullmq',
    redeliversLostFires: true,
    async start(run) {
      const [{ Queue, Worker }, { Redis }] = await loadWithPeers(options.libraries, loadJobLibraries, {
        from: import.meta.url,
      });
      queueConnection = connect(Redis, true);
      workerConnection = connect(Redis, false);
      queue = new Queue(options.queueName, { connection: queueConnection, prefix: options.prefix });
      queue.on('error', (error) => options.logger.debug('BullMQ queue error', { error: String(error) }));
      worker = new Worker(
        options.queueName,
        async (job) => {
          await run(job.data as Fire);
        },
        {
          connection: workerConnection,
          prefix: options.prefix,
          concurrency: options.concurrency ?? 64,
          stalledInterval: options.stalledIntervalMs,
          lockDuration: options.lockDurationMs,
          maxStalledCount: 1,
        },
      );
      worker.on('error', (error) => options.logger.warn('BullMQ worker error', { error: String(error) }));
      // Start-up does not wait on Redis beyond a short while: a service whose Redis is down starts degraded.
      const ready = queueConnection;
      await new Promise<void>((resolve) => {
        if (ready.status === 'ready') return resolve();
        const timer = setTimeout(resolve, READY_WAIT_MS);
        ready.once('ready', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    async enqueue(fire) {
      if (!queue) return;
      const q = queue;
      await withTimeout(
        (async () => {
          // A due fire whose processing failed (the database was away) is still held under its id and would
          // swallow this add, leaving the job without fires for a day: it is removed, so that the fire is delivered
          // again (the claim on next_run_time keeps it to one run). Only due fires: a later one cannot have run.
          if (fire.scheduledTime <= options.now().getTime()) {
            const held = await q.getJob(fire.id);
            // Another instance's scan may have removed and queued it again meanwhile (a remove of that one fails
            // while a worker holds it): harmless, the add below collapses on the id or the claim turns it away.
            if (held && (await held.isFailed())) await held.remove().catch(() => {});
          }
          return q.add('fire', fire, {
            jobId: fire.id,
            delay: Math.max(0, fire.scheduledTime - options.now().getTime()),
            attempts: 1,
            // Kept a while so that a late duplicate enqueue of the same fire still collapses (the run-log row and
            // the claim on next_run_time guard beyond that).
            removeOnComplete: { age: 3600 },
            removeOnFail: { age: 24 * 3600 },
          });
        })(),
        ENQUEUE_TIMEOUT_MS,
      );
    },
    async stop(graceful) {
      // The engine has ended its runs before this. The worker's connection waits for Redis, and so would its close
      // while Redis is away (a shutdown during an outage): past a short wait the connections are cut instead.
      await withTimeout(Promise.allSettled([worker?.close(!graceful), queue?.close()]), CLOSE_WAIT_MS).catch(
        () => {},
      );
      workerConnection?.disconnect();
      queueConnection?.disconnect();
      worker = undefined;
      queue = undefined;
    },
  };
}
