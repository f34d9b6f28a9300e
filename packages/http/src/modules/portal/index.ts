/**
 * Module `Module` (the multi-app portal): module administration and the caller's modules and default module.
 * The portal services belong to `Admin` (the personal menu is cached under them); this module adds the routes.
 * `/list` is registered before `/{id}`.
 */
import { defineModule } from '../../module/define.js';
import { adminModule } from '../admin/index.js';
import { portalRecycleTypes } from './recycle-types.js';
import * as moduleCreate from './routes/module-create.js';
import * as moduleDelete from './routes/module-delete.js';
import * as moduleDetail from './routes/module-detail.js';
import * as moduleList from './routes/module-list.js';
import * as moduleUpdate from './routes/module-update.js';
import * as myDefaultModule from './routes/my-default-module.js';
import * as myModules from './routes/my-modules.js';
import type { PortalRouteDeps } from './routes/route-deps.js';

export const portalModule = defineModule({
  name: 'Module',
  dependsOn: [adminModule],
  services: ({ use }): PortalRouteDeps => {
    const { admin, portal } = use(adminModule);
    return { ...portal, actorOf: admin.actorOf };
  },
  recycleTypes: (_portal, { core }) => portalRecycleTypes(core),
  routes: [moduleList, moduleCreate, moduleDetail, moduleUpdate, moduleDelete, myModules, myDefaultModule],
});
