/**
 * Resolves a caller's data scope (contract §4) from their enabled roles: 1 All, 2 own Org, 3 Org and
 * children, 4 Self, 5 Custom org list. Several roles: the widest wins (the union of the org sets, plus the
 * caller's own rows if any role says Self). The super admin sees all. Unresolved — no such user, a disabled or
 * deleted user, no roles, or an API key bound to nobody — sees nothing (fail closed). Nothing is cached: a
 * role or organisation change applies to the very next request.
 *
 * Consumers apply the result to their own tables with `dataScopeCondition(scope, { org, owner })` from
 * `@svc/data`.
 */
import {
  ALL_DATA_SCOPE,
  DataScope,
  type DataScopeFilter,
  descendantOrgIds,
  EMPTY_DATA_SCOPE,
  type OrgLink,
  type Repositories,
  type RoleScope,
} from '@svc/data';
import type { Principal } from '../auth/principal.js';

export interface DataScopeResolver {
  /** The scope of a request's caller; a key principal gets its bound user's scope, an unbound key none. */
  forPrincipal(principal: Principal): Promise<DataScopeFilter>;
  /** The scope of a user. */
  forUser(userId: number): Promise<DataScopeFilter>;
}

/** Dependencies of {@link createDataScopeResolver}. */
export interface DataScopeResolverDeps {
  repos: Pick<Repositories, 'users' | 'roles' | 'orgs'>;
}

/**
 * Unites the scopes of a user's roles. `links` is the organisation tree (needed only for Org and children).
 * Pure: the resolver's rules in one testable place.
 */
export function combineRoleScopes(
  roles: readonly RoleScope[],
  user: { id: number; orgId: number | null },
  links: readonly OrgLink[],
): DataScopeFilter {
  if (roles.some((r) => r.dataScope === DataScope.All)) return ALL_DATA_SCOPE;
  const orgIds = new Set<number>();
  let self = false;
  for (const role of roles) {
    switch (role.dataScope) {
      case DataScope.Org:
        if (user.orgId !== null) orgIds.add(user.orgId);
        break;
      case DataScope.OrgAndChildren:
        if (user.orgId !== null) for (const id of descendantOrgIds(links, [user.orgId])) orgIds.add(id);
        break;
      case DataScope.Self:
        self = true;
        break;
      case DataScope.Custom:
        for (const id of role.customOrgIds) orgIds.add(id);
        break;
      // An unknown stored value grants nothing.
    }
  }
  if (orgIds.size === 0 && !self) return EMPTY_DATA_SCOPE;
  return { all: false, orgIds: [...orgIds].sort((a, b) => a - b), selfUserId: self ? user.id : null };
}

/**
 * What `roles` would let `user` see beyond `mine`: `'all'` when they see everything and `mine` does not, else
 * the organisations outside `mine` (empty: nothing beyond). A role's Org and Org-and-children scopes apply to
 * the user's organisation; Self adds only the user's own rows, never beyond.
 */
export function scopeBeyond(
  mine: DataScopeFilter,
  roles: readonly RoleScope[],
  user: { id: number; orgId: number | null },
  links: readonly OrgLink[],
): 'all' | number[] {
  if (mine.all) return [];
  const granted = combineRoleScopes(roles, user, links);
  if (granted.all) return 'all';
  return granted.orgIds.filter((orgId) => !mine.orgIds.includes(orgId));
}

/**
 * Creates the resolver.
 * @example const scope = await createDataScopeResolver({ repos }).forPrincipal(principal);
 */
export function createDataScopeResolver(deps: DataScopeResolverDeps): DataScopeResolver {
  const { users, roles, orgs } = deps.repos;

  async function forUser(userId: number): Promise<DataScopeFilter> {
    if (!Number.isSafeInteger(userId) || userId <= 0) return EMPTY_DATA_SCOPE;
    const user = await users.findById(userId);
    if (!user?.enabled) return EMPTY_DATA_SCOPE;
    if (user.isSuperAdmin) return ALL_DATA_SCOPE;
    const scopes = await roles.scopesOfUser(userId);
    if (scopes.length === 0) return EMPTY_DATA_SCOPE;
    const needsTree = scopes.some((s) => s.dataScope === DataScope.OrgAndChildren);
    return combineRoleScopes(scopes, user, needsTree ? await orgs.links() : []);
  }

  return {
    forUser,
    async forPrincipal(principal) {
      if (principal.kind === 'user' && principal.isSuperAdmin) return ALL_DATA_SCOPE;
      return principal.userId === null ? EMPTY_DATA_SCOPE : forUser(principal.userId);
    },
  };
}
