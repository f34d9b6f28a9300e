/**
 * The built-in modules, in the order their routes are registered (fixed paths before the `{id}` routes that would
 * take them: `GET /sys/user/export` of `Import` before `GET /sys/user/{id}` of `Admin`).
 */
import type { AnyModule } from '../module/define.js';
import { adminModule } from './admin/index.js';
import { authModule } from './auth/index.js';
import { cacheModule } from './cache/index.js';
import { configModule } from './config/index.js';
import { dashboardModule } from './dashboard/index.js';
import { dictModule } from './dict/index.js';
import { externalAuthModule } from './external-auth/index.js';
import { healthModule } from './health/index.js';
import { importModule } from './import/index.js';
import { jobModule } from './job/index.js';
import { logModule } from './log/index.js';
import { metaModule } from './meta/index.js';
import { mfaModule } from './mfa/index.js';
import { monitorModule } from './monitor/index.js';
import { noticeModule } from './notice/index.js';
import { passkeyModule } from './passkey/index.js';
import { personalModule } from './personal/index.js';
import { portalModule } from './portal/index.js';
import { realtimeModule } from './realtime/index.js';
import { recycleBinModule } from './recycle-bin/index.js';
import { uploadModule } from './upload/index.js';

export const BUILT_IN_MODULES: readonly AnyModule[] = [
  healthModule,
  authModule,
  personalModule,
  metaModule,
  mfaModule,
  importModule,
  externalAuthModule,
  adminModule,
  passkeyModule,
  recycleBinModule,
  configModule,
  dictModule,
  cacheModule,
  logModule,
  monitorModule,
  uploadModule,
  portalModule,
  dashboardModule,
  noticeModule,
  jobModule,
  realtimeModule,
];

export {
  adminModule,
  authModule,
  cacheModule,
  configModule,
  dashboardModule,
  dictModule,
  externalAuthModule,
  healthModule,
  importModule,
  jobModule,
  logModule,
  metaModule,
  mfaModule,
  monitorModule,
  noticeModule,
  passkeyModule,
  personalModule,
  portalModule,
  realtimeModule,
  recycleBinModule,
  uploadModule,
};
