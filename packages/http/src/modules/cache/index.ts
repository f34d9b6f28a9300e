/**
 * Module `Cache`: the cache actions of `/sys/cache` (permissions and data scopes, dictionaries, config values and
 * the site info, the portal menus). Built once here (@svc/modules `createCacheActions`) from the core and, while
 * they are on, modules `Dict` and `Config`; while one is off this instance holds none of its copies, and the
 * dictionary flush still tells the other instances.
 */
import { createCacheActions } from '@svc/modules';
import { defineModule } from '../../module/define.js';
import { configModule } from '../config/index.js';
import { dictModule } from '../dict/index.js';
import * as flushAuth from './routes/flush-auth.js';
import * as flushConfig from './routes/flush-config.js';
import * as flushDict from './routes/flush-dict.js';
import * as rebuildPortal from './routes/rebuild-portal.js';
import type { CacheRouteDeps } from './services.js';

export type { CacheRouteDeps } from './services.js';

export const cacheModule = defineModule({
  name: 'Cache',
  optional: [configModule, dictModule],
  services: ({ core, useOptional }): CacheRouteDeps => ({
    cache: createCacheActions({
      cache: core.cache,
      permissions: core.permissions,
      configStore: core.configStore,
      dicts: useOptional(dictModule)?.dicts,
      site: useOptional(configModule)?.site,
    }),
  }),
  routes: [flushAuth, flushDict, flushConfig, rebuildPortal],
});
