/**
 * Module `Admin`: users, organisations, positions, roles, menus, online sessions and the personal centre; always
 * on. Its services (the administration services and the caller's portal, which the personal menu is cached
 * under) are built once here; `Dashboard`, `Module`, `RecycleBin` and the other areas reach them through
 * `use(adminModule)`. Its recycle-bin types are those of its own tables. Static paths (`/page`, `/batch-delete`,
 * `/list`, `/tree`) are registered before `/{id}` of the same resource, so they are never taken for an id.
 */
import {
  AdminErrorCode,
  createAdminServices,
  createPortalServices,
  PORTAL_GENERATION_KEY,
} from '@svc/security';
import { defineModule } from '../../module/define.js';
import * as menuCreate from './routes/menus/create.js';
import * as menuDelete from './routes/menus/delete.js';
import * as menuRoutes from './routes/menus/routes.js';
import * as menuTree from './routes/menus/tree.js';
import * as menuUpdate from './routes/menus/update.js';
import * as orgCopy from './routes/orgs/copy.js';
import * as orgCreate from './routes/orgs/create.js';
import * as orgDelete from './routes/orgs/delete.js';
import * as orgDetail from './routes/orgs/detail.js';
import * as orgList from './routes/orgs/list.js';
import * as orgUpdate from './routes/orgs/update.js';
import * as personalMenu from './routes/personal/menu.js';
import * as personalPermissions from './routes/personal/permissions.js';
import * as profileGet from './routes/personal/profile-get.js';
import * as profilePut from './routes/personal/profile-put.js';
import * as sessionKick from './routes/personal/session-kick.js';
import * as personalSessions from './routes/personal/sessions.js';
import * as positionCreate from './routes/positions/create.js';
import * as positionDelete from './routes/positions/delete.js';
import * as positionDetail from './routes/positions/detail.js';
import * as positionPage from './routes/positions/page.js';
import * as positionUpdate from './routes/positions/update.js';
import * as roleBatchDelete from './routes/roles/batch-delete.js';
import * as roleCreate from './routes/roles/create.js';
import * as dataScopeGet from './routes/roles/datascope-get.js';
import * as dataScopePut from './routes/roles/datascope-put.js';
import * as roleDelete from './routes/roles/delete.js';
import * as roleDetail from './routes/roles/detail.js';
import * as roleMenusGet from './routes/roles/menus-get.js';
import * as roleMenusPut from './routes/roles/menus-put.js';
import * as rolePage from './routes/roles/page.js';
import * as roleUpdate from './routes/roles/update.js';
import * as roleUsersGet from './routes/roles/users-get.js';
import * as roleUsersPut from './routes/roles/users-put.js';
import * as forceLogout from './routes/sessions/force-logout.js';
import * as sessionsOnline from './routes/sessions/online.js';
import * as userBatchDelete from './routes/users/batch-delete.js';
import * as userCreate from './routes/users/create.js';
import * as userDelete from './routes/users/delete.js';
import * as userDetail from './routes/users/detail.js';
import * as userEnabled from './routes/users/enabled.js';
import * as userPage from './routes/users/page.js';
import * as userResetPassword from './routes/users/reset-password.js';
import * as userUpdate from './routes/users/update.js';
import type { AdminModuleServices } from './services.js';

export type { AdminModuleServices, AdminRouteDeps } from './services.js';

export const adminModule = defineModule({
  name: 'Admin',
  switchable: false,
  errorCodes: [AdminErrorCode],
  services: ({ core }): AdminModuleServices => {
    const { repos, sessions, permissions, cache, config, now } = core;
    const admin = createAdminServices({
      repos,
      sessions,
      permissions,
      settings: core.security.settings,
      defaultInitialPassword: config.service.Security.DefaultInitialPassword,
      pbkdf2Iterations: config.service.Security.Password.Pbkdf2Iterations,
      now,
      menusChanged: () => cache.increment(PORTAL_GENERATION_KEY),
    });
    const portal = createPortalServices({
      repos,
      cache,
      bumpGeneration: () => cache.increment(PORTAL_GENERATION_KEY),
      ttlMs: config.service.Cache.PermissionMinutes * 60_000,
      now,
      menuTree: (principal) => admin.personal.menu(principal),
    });
    return { admin, portal };
  },
  recycleTypes: ({ admin }) => admin.recycleTypes,
  routes: [
    userPage,
    userBatchDelete,
    userCreate,
    userDetail,
    userUpdate,
    userDelete,
    userResetPassword,
    userEnabled,
    rolePage,
    roleBatchDelete,
    roleCreate,
    roleDetail,
    roleUpdate,
    roleDelete,
    roleMenusGet,
    roleMenusPut,
    dataScopeGet,
    dataScopePut,
    roleUsersGet,
    roleUsersPut,
    menuTree,
    menuCreate,
    menuUpdate,
    menuDelete,
    orgList,
    orgCreate,
    orgDetail,
    orgUpdate,
    orgDelete,
    orgCopy,
    positionPage,
    positionCreate,
    positionDetail,
    positionUpdate,
    positionDelete,
    sessionsOnline,
    forceLogout,
    profileGet,
    profilePut,
    personalPermissions,
    personalMenu,
    personalSessions,
    sessionKick,
    menuRoutes,
  ],
});
