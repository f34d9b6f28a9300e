/**
 * The administration services, built once per server from the shared deps: users, roles, menus,
 * organisations, positions, online sessions, the personal centre, the recycle-bin types of the administration's
 * own tables and the actor factory that gives each request its codes and data scope.
 */
import { effectiveIterations, PBKDF2_DEFAULT_ITERATIONS } from '@svc/kernel';
import { type AdminActorFactory, createAdminActorFactory } from './actor.js';
import { createDashboardService, type DashboardService } from './dashboard.js';
import { createDataScopeResolver, type DataScopeResolver } from './data-scope.js';
import type { AdminDeps, ResolvedAdminDeps } from './deps.js';
import { createMenuAdminService, type MenuAdminService } from './menus.js';
import { createOnlineSessionService, type OnlineSessionService } from './online-sessions.js';
import { createOrgAdminService, type OrgAdminService } from './orgs.js';
import { createPersonalService, type PersonalService } from './personal.js';
import { createPositionAdminService, type PositionAdminService } from './positions.js';
import { adminRecycleEntries, type RecycleBinType, roleRecycleType, userRecycleType } from './recycle-bin.js';
import { createRoleAdminService, type RoleAdminService } from './roles.js';
import { createUserAdminService, type UserAdminService } from './users.js';

export interface AdminServices {
  actorOf: AdminActorFactory;
  scopes: DataScopeResolver;
  users: UserAdminService;
  roles: RoleAdminService;
  menus: MenuAdminService;
  orgs: OrgAdminService;
  positions: PositionAdminService;
  onlineSessions: OnlineSessionService;
  personal: PersonalService;
  /** The dashboard summary within the caller's data scope. */
  dashboard: DashboardService;
  /**
   * The recycle-bin types of the administration's own tables (users, roles, organisations, positions, menus),
   * for a recycle bin to register (`createRecycleBinRegistry`); in a server, module `Admin` declares them.
   */
  recycleTypes: readonly RecycleBinType[];
}

/**
 * Builds the administration services.
 * @example
 * const admin = createAdminServices({ repos, sessions, permissions, settings, pbkdf2Iterations: 600_000 });
 * await admin.users.create(admin.actorOf(principal), { account: 'alice', realName: 'Alice', orgId: 1 });
 */
export function createAdminServices(deps: AdminDeps): AdminServices {
  const resolved: ResolvedAdminDeps = {
    ...deps,
    defaultInitialPassword: deps.defaultInitialPassword ?? null,
    pbkdf2Iterations: effectiveIterations(deps.pbkdf2Iterations ?? PBKDF2_DEFAULT_ITERATIONS),
    now: deps.now ?? (() => new Date()),
    menusChanged: deps.menusChanged ?? (async () => {}),
  };
  const scopes = createDataScopeResolver({ repos: resolved.repos });
  return {
    actorOf: createAdminActorFactory({ permissions: resolved.permissions, scopes }),
    scopes,
    users: createUserAdminService(resolved),
    roles: createRoleAdminService(resolved),
    menus: createMenuAdminService(resolved),
    orgs: createOrgAdminService(resolved),
    positions: createPositionAdminService(resolved),
    onlineSessions: createOnlineSessionService(resolved),
    personal: createPersonalService(resolved),
    dashboard: createDashboardService(resolved),
    recycleTypes: [userRecycleType(resolved), roleRecycleType(resolved), ...adminRecycleEntries(resolved)],
  };
}

export * from './account-name.js';
export * from './actor.js';
export * from './codes.js';
export * from './dashboard.js';
export * from './data-scope.js';
export type { AdminDeps } from './deps.js';
export * from './menus.js';
export * from './online-sessions.js';
export * from './orgs.js';
export * from './permission-codes.js';
export * from './personal.js';
export * from './positions.js';
export * from './rank.js';
export * from './recycle-bin.js';
export * from './roles.js';
export * from './tree.js';
export * from './users.js';
