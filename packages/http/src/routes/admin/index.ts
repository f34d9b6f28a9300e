/**
 * Administration (users, organisations, positions, roles, menus, permission routes, data scope, online
 * sessions, personal centre, recycle bin): registers the routes of this area. Static paths (`/page`,
 * `/batch-delete`, `/list`, `/tree`) are registered before `/{id}` of the same resource, so they are never
 * taken for an id. The recycle bin belongs to the `RecycleBin` module of `Service:Api:DisabledModules`.
 */
import type { AdminRouteDeps } from '../../admin/route-deps.js';
import type { AdminModuleServices } from '../../modules/admin/services.js';
import type { RegisterContext } from '../../openapi/register.js';
import * as menuCreate from './menus/create.js';
import * as menuDelete from './menus/delete.js';
import * as menuRoutes from './menus/routes.js';
import * as menuTree from './menus/tree.js';
import * as menuUpdate from './menus/update.js';
import * as orgCopy from './orgs/copy.js';
import * as orgCreate from './orgs/create.js';
import * as orgDelete from './orgs/delete.js';
import * as orgDetail from './orgs/detail.js';
import * as orgList from './orgs/list.js';
import * as orgUpdate from './orgs/update.js';
import * as personalMenu from './personal/menu.js';
import * as personalPermissions from './personal/permissions.js';
import * as profileGet from './personal/profile-get.js';
import * as profilePut from './personal/profile-put.js';
import * as sessionKick from './personal/session-kick.js';
import * as personalSessions from './personal/sessions.js';
import * as positionCreate from './positions/create.js';
import * as positionDelete from './positions/delete.js';
import * as positionDetail from './positions/detail.js';
import * as positionPage from './positions/page.js';
import * as positionUpdate from './positions/update.js';
import * as recyclePage from './recycle/page.js';
import * as recyclePurge from './recycle/purge.js';
import * as recycleRestore from './recycle/restore.js';
import * as recycleTypes from './recycle/types.js';
import * as roleBatchDelete from './roles/batch-delete.js';
import * as roleCreate from './roles/create.js';
import * as dataScopeGet from './roles/datascope-get.js';
import * as dataScopePut from './roles/datascope-put.js';
import * as roleDelete from './roles/delete.js';
import * as roleDetail from './roles/detail.js';
import * as roleMenusGet from './roles/menus-get.js';
import * as roleMenusPut from './roles/menus-put.js';
import * as rolePage from './roles/page.js';
import * as roleUpdate from './roles/update.js';
import * as roleUsersGet from './roles/users-get.js';
import * as roleUsersPut from './roles/users-put.js';
import * as forceLogout from './sessions/force-logout.js';
import * as sessionsOnline from './sessions/online.js';
import * as userBatchDelete from './users/batch-delete.js';
import * as userCreate from './users/create.js';
import * as userDelete from './users/delete.js';
import * as userDetail from './users/detail.js';
import * as userEnabled from './users/enabled.js';
import * as userPage from './users/page.js';
import * as userResetPassword from './users/reset-password.js';
import * as userUpdate from './users/update.js';

export function registerAdminRoutes(ctx: RegisterContext, services: AdminModuleServices): void {
  const deps = services.http;
  const admin: AdminRouteDeps = {
    admin: services.admin,
    portal: services.portal.portal,
    reauth: deps.core.mfa.reauth,
  };
  for (const route of [
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
  ]) {
    route.register(ctx, admin);
  }
  menuRoutes.register(ctx);
  if (deps.modules.plan.isEnabled('RecycleBin'))
    for (const route of [recycleTypes, recyclePage, recycleRestore, recyclePurge]) route.register(ctx, admin);
}
