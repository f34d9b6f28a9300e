/**
 * The actions of module `Cache` (`/sys/cache/*`): the permission and data-scope caches, the dictionaries, the
 * config values with the site info, and the portal-menu generation. Each answers how many entries it dropped
 * (the portal: its new generation).
 */
import type { ConfigStore, DictService, SiteInfoService } from '@svc/data';
import type { Cache } from '@svc/data/cache';
import { PERMISSION_KEY_PREFIX, type PermissionCache, PORTAL_GENERATION_KEY } from '@svc/security';
import { invalidateDicts } from '../dict/invalidate.js';

export interface CacheActions {
  /** Every user's permissions and data scopes are reloaded at next use; answers the entries removed. */
  flushAuth(): Promise<number>;
  flushDict(): Promise<number>;
  /** Every config key and the site info; answers the entries this instance dropped. */
  flushConfig(): Promise<number>;
  /** Answers the new portal generation. */
  rebuildPortal(): Promise<number>;
}

export interface CacheActionsDeps {
  cache: Pick<Cache, 'deleteByPrefix' | 'increment' | 'publish'>;
  permissions: Pick<PermissionCache, 'invalidateAll'>;
  configStore: Pick<ConfigStore, 'invalidate'>;
  /** Module `Dict`'s service; undefined while it is off (the change event is raised for the other instances). */
  dicts: Promise<Pick<DictService, 'invalidate'>> | undefined;
  /** Module `Config`'s site info; undefined while it is off (this instance holds none). */
  site: Promise<Pick<SiteInfoService, 'drop'>> | undefined;
}

/**
 * The cache actions over the services given.
 * @example const actions = createCacheActions({ cache, permissions, configStore, dicts, site }); await actions.flushDict();
 */
export function createCacheActions(deps: CacheActionsDeps): CacheActions {
  const { cache } = deps;
  return {
    async flushAuth() {
      // The generation bump is what makes every entry stale (also one being loaded right now); the entries
      // are then removed to report and free them. The generation counters themselves are kept.
      await deps.permissions.invalidateAll();
      return cache.deleteByPrefix(PERMISSION_KEY_PREFIX);
    },
    flushDict: () => invalidateDicts(deps),
    async flushConfig() {
      const siteDropped = deps.site ? (await deps.site).drop() : 0;
      return siteDropped + (await deps.configStore.invalidate());
    },
    rebuildPortal: () => cache.increment(PORTAL_GENERATION_KEY),
  };
}
