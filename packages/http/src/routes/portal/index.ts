/**
 * The multi-app portal (module `Module` of `Service:Api:DisabledModules`): module administration and the
 * caller's modules and default module. `/list` is registered before `/{id}`.
 */

import { adminServicesFor } from '../../admin/services.js';
import type { HttpDeps } from '../../deps.js';
import type { RegisterContext } from '../../openapi/register.js';
import { portalServicesFor } from '../../portal/services.js';
import * as moduleCreate from './module-create.js';
import * as moduleDelete from './module-delete.js';
import * as moduleDetail from './module-detail.js';
import * as moduleList from './module-list.js';
import * as moduleUpdate from './module-update.js';
import * as myDefaultModule from './my-default-module.js';
import * as myModules from './my-modules.js';
import type { PortalRouteDeps } from './route-deps.js';

export function registerPortalRoutes(ctx: RegisterContext, deps: HttpDeps): void {
  const d: PortalRouteDeps = { ...portalServicesFor(deps), actorOf: adminServicesFor(deps).actorOf };
  for (const route of [
    moduleList,
    moduleCreate,
    moduleDetail,
    moduleUpdate,
    moduleDelete,
    myModules,
    myDefaultModule,
  ])
    route.register(ctx, d);
}
