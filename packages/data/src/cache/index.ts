/**
 * The cache port and its providers, chosen by `Service:Cache:Provider`: `Memory` (default, one process) or
 * `Redis` (shared by every instance, so lockout, rate limits, SMS counters, captcha tickets and change events
 * behave as one service).
 */

import { loadWithDriver } from '../drivers.js';
import type { MemoryCacheOptions } from './memory.js';
import { createMemoryCache } from './memory.js';
import { type Cache, CacheError } from './port.js';
import type { RedisCacheOptions } from './redis.js';

export { createMemoryCache, type MemoryCacheOptions } from './memory.js';
export {
  type Cache,
  CacheError,
  type CacheProvider,
  CacheUnavailableError,
  type IncrementOptions,
  type MessageHandler,
  type SyncCounters,
  type Unsubscribe,
} from './port.js';
export type { RedisCacheOptions } from './redis.js';
export { redactRedisUrl } from './redis-url.js';

/**
 * Connects the Redis provider. Its client (`@keyv/redis`, an optional peer) is loaded here, so a host on the
 * memory cache never needs it; a missing client is a `DriverMissingError` naming the package.
 */
export async function createRedisCache(options: RedisCacheOptions): Promise<Cache> {
  const redis = await loadWithDriver('Redis', 'Service:Cache:Provider', () => import('./redis.js'));
  return redis.createRedisCache(options);
}
export {
  type CacheHealth,
  createResilientCache,
  isCacheOutage,
  type RecoveryMessage,
  type ResilientCache,
  type ResilientCacheOptions,
} from './resilient.js';
export type { CacheErrorReporter } from './shared.js';

/** Options of {@link createCache}: the provider name plus that provider's options. */
export type CacheOptions =
  | ({ provider: 'Memory' } & MemoryCacheOptions)
  | ({ provider: 'Redis' } & RedisCacheOptions);

/**
 * Creates the configured cache; the Redis provider connects first and rejects when it cannot.
 * @example
 * const cache = await createCache({ provider: 'Redis', url: 'redis://127.0.0.1:6379' });
 */
export async function createCache(options: CacheOptions): Promise<Cache> {
  switch (options.provider) {
    case 'Memory':
      return createMemoryCache(options);
    case 'Redis':
      return createRedisCache(options);
    default:
      // Reachable only from untyped configuration.
      throw new CacheError(`Unknown cache provider: ${String((options as { provider: unknown }).provider)}`);
  }
}
