/**
 * Permission codes per user, cached in the cache port for `Cache:PermissionMinutes` (spec "Events":
 * authorization changes invalidate the permission cache through a generation counter).
 *
 * Each cached entry records the global generation and the user's generation it was loaded under, and is used
 * only while both still match. Invalidation therefore never deletes anything: it bumps a counter, so a
 * request that loaded codes just before an authorization change and stores them just after can never make
 * the old codes current again (a delete would let it). All three reads go out together, so a cached answer
 * costs one round trip. There is no in-process memo: with several instances it would outlive an
 * invalidation made on another one.
 */
import type { PermissionRepository } from '@svc/data';
import type { Cache } from '@svc/data/cache';
import {
  PERMISSION_GENERATION_KEY,
  PERMISSION_KEY_PREFIX,
  PERMISSION_USER_GENERATION_PREFIX,
} from './constants.js';
import type { PermissionResolver } from './contracts.js';

/** Dependencies of {@link createPermissionResolver}. */
export interface PermissionResolverDeps {
  permissions: PermissionRepository;
  cache: Cache;
  /**
   * Lifetime of a cached entry in minutes (`Service:Cache:PermissionMinutes`).
   * @default 20
   */
  ttlMinutes?: number;
}

/** The resolver plus the invalidation used by role, menu and user administration. */
export interface PermissionCache extends PermissionResolver {
  /** Every user's codes are reloaded at their next use (old entries expire by TTL); returns the generation. */
  invalidateAll(): Promise<number>;
  /** This user's codes are reloaded at their next use. */
  invalidateUser(userId: number): Promise<void>;
}

interface Entry {
  g: number;
  u: number;
  codes: string[];
  /** Enabled and not deleted (API keys bound to the user stop working when false). */
  active: boolean;
}

const DEFAULT_TTL_MINUTES = 20;
const MS_PER_MINUTE = 60_000;
const EMPTY: ReadonlySet<string> = new Set();

/**
 * Creates the permission resolver.
 * @example
 * const permissions = createPermissionResolver({ permissions: repos.permissions, cache, ttlMinutes: 20 });
 * (await permissions.codesOf(userId)).has('GET:/api/v1/sys/user/page');
 */
export function createPermissionResolver(deps: PermissionResolverDeps): PermissionCache {
  const { permissions, cache } = deps;
  const ttlMs = (deps.ttlMinutes ?? DEFAULT_TTL_MINUTES) * MS_PER_MINUTE;
  if (!(ttlMs > 0)) throw new RangeError('ttlMinutes must be positive');
  const userGenerationKey = (userId: number) => `${PERMISSION_USER_GENERATION_PREFIX}${userId}`;
  const entryKey = (userId: number) => `${PERMISSION_KEY_PREFIX}${userId}`;

  /** The user's current entry, from the cache while both generations match, else loaded and stored. */
  async function entryOf(userId: number): Promise<Entry> {
    // The generations are read before the database, so codes loaded from an older state are stored under
    // the older generations and never match again once an invalidation bumped them.
    const [g, u, entry] = await Promise.all([
      cache.getCounter(PERMISSION_GENERATION_KEY),
      cache.getCounter(userGenerationKey(userId)),
      cache.get<Entry>(entryKey(userId)),
    ]);
    if (
      entry &&
      entry.g === g &&
      entry.u === u &&
      Array.isArray(entry.codes) &&
      typeof entry.active === 'boolean'
    )
      return entry;
    const [codes, active] = await Promise.all([
      permissions.codesOfUser(userId),
      permissions.isActiveUser(userId),
    ]);
    const fresh: Entry = { g, u, codes, active };
    await cache.set(entryKey(userId), fresh, ttlMs);
    return fresh;
  }

  return {
    async codesOf(userId) {
      if (!Number.isSafeInteger(userId) || userId <= 0) return EMPTY;
      return new Set((await entryOf(userId)).codes);
    },

    async isActive(userId) {
      if (!Number.isSafeInteger(userId) || userId <= 0) return false;
      return (await entryOf(userId)).active;
    },

    invalidateAll() {
      return cache.increment(PERMISSION_GENERATION_KEY);
    },

    async invalidateUser(userId) {
      // Never expires: were it to restart at 0, an entry stored under an old value could match again.
      await cache.increment(userGenerationKey(userId));
    },
  };
}
