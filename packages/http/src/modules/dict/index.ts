/**
 * Module `Dict`: dictionary types and items (`/sys/dict`), and the enabled items of a type for any signed-in
 * caller, cached per instance. Its service is built once here; module `Cache` and the recycle bin drop its copy
 * through `useOptional(dictModule)` / `servicesIfOn(dictModule)`.
 */
import { createDictService, DictErrorCode } from '@svc/data';
import { defineModule } from '../../module/define.js';
import { dictRecycleTypes } from './recycle-types.js';
import * as itemBatchDelete from './routes/item-batch-delete.js';
import * as itemCreate from './routes/item-create.js';
import * as itemDelete from './routes/item-delete.js';
import * as itemPage from './routes/item-page.js';
import * as itemUpdate from './routes/item-update.js';
import * as dictItems from './routes/items.js';
import * as typeBatchDelete from './routes/type-batch-delete.js';
import * as typeCreate from './routes/type-create.js';
import * as typeDelete from './routes/type-delete.js';
import * as typeDetail from './routes/type-detail.js';
import * as typePage from './routes/type-page.js';
import * as typeUpdate from './routes/type-update.js';
import type { DictRouteDeps } from './services.js';

export type { DictRouteDeps } from './services.js';

export const dictModule = defineModule({
  name: 'Dict',
  errorCodes: [DictErrorCode],
  services: ({ core }): DictRouteDeps => {
    const dicts = createDictService({
      repo: core.repos.dicts,
      cache: core.cache,
      ttlMs: core.config.service.Cache.PermissionMinutes * 60_000,
      now: core.now,
    });
    // A rejection surfaces where the service is awaited; this keeps it from being reported as unhandled.
    dicts.catch(() => {});
    return { dicts };
  },
  // Fixed paths before the `{id}` routes, which would take them.
  routes: [
    typePage,
    typeBatchDelete,
    typeDetail,
    typeCreate,
    typeUpdate,
    typeDelete,
    itemPage,
    itemBatchDelete,
    itemCreate,
    itemUpdate,
    itemDelete,
    dictItems,
  ],
  recycleTypes: ({ dicts }, { core }) =>
    dictRecycleTypes({ repos: core.repos, now: core.now, dicts: () => dicts }),
  close: async ({ dicts }) => {
    await dicts.then((d) => d.close()).catch(() => {});
  },
});
