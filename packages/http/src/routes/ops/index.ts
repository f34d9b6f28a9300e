/**
 * Operations (config and dictionary centre, cache management, logs, monitor, files): registers the routes of
 * the enabled modules (`Config`, `Dict`, `Cache`, `Log`, `Monitor`, `Upload`). Fixed paths are registered
 * before the `{id}` routes they would otherwise be matched by (`/sys/config/batch`, `/site`, `/page`).
 */
import type { HttpDeps } from '../../deps.js';
import type { RegisterContext } from '../../openapi/register.js';
import { opsServicesFor } from '../../ops/services.js';
import * as flushAuth from './cache/flush-auth.js';
import * as flushConfig from './cache/flush-config.js';
import * as flushDict from './cache/flush-dict.js';
import * as rebuildPortal from './cache/rebuild-portal.js';
import * as configBatch from './config/batch.js';
import * as configCreate from './config/create.js';
import * as configDelete from './config/delete.js';
import * as configDetail from './config/detail.js';
import * as configPage from './config/page.js';
import * as passwordPolicy from './config/password-policy.js';
import * as site from './config/site.js';
import * as configUpdate from './config/update.js';
import * as configValue from './config/value.js';
import * as itemBatchDelete from './dict/item-batch-delete.js';
import * as itemCreate from './dict/item-create.js';
import * as itemDelete from './dict/item-delete.js';
import * as itemPage from './dict/item-page.js';
import * as itemUpdate from './dict/item-update.js';
import * as dictItems from './dict/items.js';
import * as typeBatchDelete from './dict/type-batch-delete.js';
import * as typeCreate from './dict/type-create.js';
import * as typeDelete from './dict/type-delete.js';
import * as typeDetail from './dict/type-detail.js';
import * as typePage from './dict/type-page.js';
import * as typeUpdate from './dict/type-update.js';
import * as fileBatchDelete from './file/batch-delete.js';
import * as chunkUpload from './file/chunk.js';
import * as chunkComplete from './file/chunk-complete.js';
import * as chunkInit from './file/chunk-init.js';
import * as fileDelete from './file/delete.js';
import * as fileDownload from './file/download.js';
import * as filePage from './file/page.js';
import * as fileUpload from './file/upload.js';
import * as fileView from './file/view.js';
import * as exceptionClear from './log/exception-clear.js';
import * as exceptionPage from './log/exception-page.js';
import * as loginClear from './log/login-clear.js';
import * as loginPage from './log/login-page.js';
import * as opClear from './log/op-clear.js';
import * as opPage from './log/op-page.js';
import * as monitorServer from './monitor/server.js';
import type { OpsRouteDeps } from './route-deps.js';

type RouteModule = { register(ctx: RegisterContext, d: OpsRouteDeps): void };

const MODULES = {
  Config: [
    configPage,
    site,
    passwordPolicy,
    configBatch,
    configValue,
    configDetail,
    configCreate,
    configUpdate,
    configDelete,
  ],
  Dict: [
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
  Cache: [flushAuth, flushDict, flushConfig, rebuildPortal],
  Log: [opPage, opClear, loginPage, loginClear, exceptionPage, exceptionClear],
  Monitor: [monitorServer],
  Upload: [
    fileUpload,
    chunkInit,
    chunkUpload,
    chunkComplete,
    filePage,
    fileBatchDelete,
    fileDownload,
    fileView,
    fileDelete,
  ],
} satisfies Record<string, RouteModule[]>;

/** The operations areas (each a module of its own). */
export type OpsArea = keyof typeof MODULES;

/** Registers the routes of one operations area. */
export function registerOpsArea(area: OpsArea, ctx: RegisterContext, deps: HttpDeps): void {
  const d: OpsRouteDeps = {
    http: deps,
    ops: opsServicesFor(deps),
  };
  for (const route of MODULES[area]) route.register(ctx, d);
}
