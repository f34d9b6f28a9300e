/**
 * Modules `Config`, `Dict`, `Cache`, `Log`, `Monitor` and `Upload` (transitional shape: their routes still take
 * the whole deps; see modules/legacy.ts).
 */
import type { RecycleBinType } from '@svc/security';
import type { HttpDeps } from '../../deps.js';
import { defineModule } from '../../module/define.js';
import { opsServicesFor } from '../../ops/services.js';
import { type OpsArea, registerOpsArea } from '../../routes/ops/index.js';
import { httpDepsOf, legacyRoutes } from '../legacy.js';
import { configRecycleTypes, dictRecycleTypes, fileRecycleTypes } from './recycle-types.js';

const opsModule = <Name extends OpsArea>(
  name: Name,
  recycleTypes?: (deps: HttpDeps) => readonly RecycleBinType[],
) =>
  defineModule<Name, HttpDeps>({
    name,
    services: ({ core }) => httpDepsOf(core),
    recycleTypes,
    routes: [legacyRoutes(name, (ctx, deps) => registerOpsArea(name, ctx, deps))],
  });

/** The bin's deps of an operations type: the trash repository, the clock and the area's services at first use. */
const bin = (deps: HttpDeps) => ({ repos: deps.core.repos, now: deps.now });

export const configModule = opsModule('Config', (deps) =>
  configRecycleTypes({ ...bin(deps), configs: () => opsServicesFor(deps).configs }),
);
export const dictModule = opsModule('Dict', (deps) =>
  dictRecycleTypes({ ...bin(deps), dicts: () => opsServicesFor(deps).dicts }),
);
export const cacheModule = opsModule('Cache');
export const logModule = opsModule('Log');
export const monitorModule = opsModule('Monitor');
export const uploadModule = opsModule('Upload', (deps) =>
  fileRecycleTypes({ ...bin(deps), files: () => opsServicesFor(deps).files }),
);
