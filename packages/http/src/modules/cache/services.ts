/** What the cache routes receive (module `Cache`), built once by the module. */
import type { CacheActions } from '@svc/modules';

export interface CacheRouteDeps {
  /** Flushing the permission, dictionary and config caches, and rebuilding the portal menus. */
  cache: CacheActions;
}
