/**
 * Modules `Config`, `Dict`, `Cache`, `Log`, `Monitor` and `Upload` (transitional shape: their routes still take
 * the whole deps; see modules/legacy.ts).
 */
import type { HttpDeps } from '../../deps.js';
import { defineModule } from '../../module/define.js';
import { type OpsArea, registerOpsArea } from '../../routes/ops/index.js';
import { httpDepsOf, legacyRoutes } from '../legacy.js';

const opsModule = <Name extends OpsArea>(name: Name) =>
  defineModule<Name, HttpDeps>({
    name,
    services: ({ core }) => httpDepsOf(core),
    routes: [legacyRoutes(name, (ctx, deps) => registerOpsArea(name, ctx, deps))],
  });

export const configModule = opsModule('Config');
export const dictModule = opsModule('Dict');
export const cacheModule = opsModule('Cache');
export const logModule = opsModule('Log');
export const monitorModule = opsModule('Monitor');
export const uploadModule = opsModule('Upload');
