/**
 * Wires the service's own parts into the metrics, in the composition root only (nothing below knows metrics):
 * counters are decorations at the event (login-log rows, lock failures, cache reads), gauges are read at scrape
 * time from the parts' own `stats()`.
 */

import type { Database, Repositories } from '@svc/data';
import type { Cache } from '@svc/data/cache';
import { ErrorCode, isBusinessError } from '@svc/kernel';
import type { OpLogWriterStats } from '@svc/logging';
import type { LoginLock, RateLimiter } from '@svc/security';
import type { ServiceMetrics } from './metrics.js';

/** How long a scrape waits for the cache's ping before reporting it down. */
export const CACHE_PING_TIMEOUT_MS = 2000;

/** Counts every login-log row by its result code (each login attempt writes exactly one). */
export function observeLoginLog(repos: Repositories, metrics: ServiceMetrics | undefined): Repositories {
  if (!metrics) return repos;
  const inner = repos.loginLogs;
  return {
    ...repos,
    loginLogs: {
      ...inner,
      insert(entry) {
        metrics.loginOutcome(entry.resultCode);
        return inner.insert(entry);
      },
    },
  };
}

/** Counts a lockout when a wrong password reaches the threshold (later attempts are refused before counting). */
export function observeLock(lock: LoginLock, metrics: ServiceMetrics | undefined): LoginLock {
  if (!metrics) return lock;
  return {
    ...lock,
    async begin(subject) {
      const attempt = await lock.begin(subject);
      return {
        succeeded: () => attempt.succeeded(),
        release: async () => {
          await attempt.release?.();
        },
        // The failure that reaches the lock throws 40004: that moment is one lockout.
        failed() {
          try {
            return attempt.failed();
          } catch (error) {
            if (isBusinessError(error) && error.code === ErrorCode.AccountLocked.code) metrics.lockout();
            throw error;
          }
        },
      };
    },
  };
}

/** Counts cache reads as hits and misses; every other method is the cache's own. */
export function observeCache(cache: Cache, metrics: ServiceMetrics | undefined): Cache {
  if (!metrics) return cache;
  const observed = Object.create(cache) as Cache;
  Object.defineProperty(observed, 'get', {
    value: async <T>(key: string): Promise<T | undefined> => {
      const value = await cache.get<T>(key);
      metrics.cacheRead(value !== undefined);
      return value;
    },
  });
  const sync = cache.sync;
  if (sync) {
    Object.defineProperty(observed, 'sync', {
      value: {
        getShared<T>(key: string): Readonly<T> | undefined {
          const value = sync.getShared<T>(key);
          metrics.cacheRead(value !== undefined);
          return value;
        },
      },
    });
  }
  Object.defineProperty(observed, 'getShared', {
    value: async <T>(key: string): Promise<Readonly<T> | undefined> => {
      const value = await cache.getShared<T>(key);
      metrics.cacheRead(value !== undefined);
      return value;
    },
  });
  return observed;
}

/** A cache that reports a health state of its own: the Redis provider's resilient wrapper (`Healthy`, `Degraded`). */
interface CacheWithState {
  health(): string;
}
const hasState = (cache: Cache): cache is Cache & CacheWithState =>
  typeof (cache as Partial<CacheWithState>).health === 'function';

export interface GaugeParts {
  database: Database;
  cache: Cache;
  rateLimiter: RateLimiter;
  opLog: { stats(): OpLogWriterStats };
  loginLog: { stats(): OpLogWriterStats };
}

/** Registers the gauges read at scrape time. */
export function registerServerGauges(metrics: ServiceMetrics, parts: GaugeParts): void {
  metrics.addGauge({
    name: 'svc_rate_limit_refusals_total',
    help: 'Requests refused by the rate limiter since start (this instance).',
    kind: 'counter',
    read: () => parts.rateLimiter.stats().refused,
  });
  for (const [log, writer] of [
    ['op', parts.opLog],
    ['login', parts.loginLog],
  ] as const) {
    metrics.addGauge({
      name: `svc_${log}_log_queue_depth`,
      help: `${log === 'op' ? 'Operation' : 'Login'}-log rows in memory, not yet written.`,
      read: () => writer.stats().queued,
    });
    metrics.addGauge({
      name: `svc_${log}_log_spilled_rows`,
      help: `${log === 'op' ? 'Operation' : 'Login'}-log rows waiting in the spill files.`,
      read: () => writer.stats().spilled,
    });
    metrics.addGauge({
      name: `svc_${log}_log_dropped_total`,
      help: `${log === 'op' ? 'Operation' : 'Login'}-log rows lost since start.`,
      kind: 'counter',
      read: () => writer.stats().dropped,
    });
  }
  metrics.addGauge({
    name: 'svc_db_pool_connections',
    help: 'Database pool: configured max, open, idle and waiting requests (as far as the driver tells).',
    label: 'state',
    read: () => {
      const { max, open, idle, waiting } = parts.database.poolStats();
      return { max, open, idle, waiting };
    },
  });
  metrics.addGauge({
    name: 'svc_cache_up',
    help: 'Whether the cache answered its ping at this scrape (1) or not (0), by provider.',
    label: 'provider',
    read: async () => ({ [parts.cache.provider]: (await pingWithin(parts.cache)) ? 1 : 0 }),
  });
  const cache = parts.cache;
  if (hasState(cache)) {
    metrics.addGauge({
      name: 'svc_cache_state',
      help: 'The shared cache state: Healthy, or Degraded while Redis is down and each instance runs on its fallback (1 for the current state).',
      label: 'state',
      read: () => {
        const now = cache.health();
        return { Healthy: now === 'Healthy' ? 1 : 0, Degraded: now === 'Degraded' ? 1 : 0 };
      },
    });
  }
}

async function pingWithin(cache: Cache): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), CACHE_PING_TIMEOUT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([cache.ping().then(() => true as const), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
