/**
 * Rank: nobody acts above their own. An action on another user (password reset, enable/disable, MFA clear,
 * forced logout, role assignment, edit, delete) or a change that widens a role (menus, data scope) is refused
 * (41001) when the target's effective permission codes are not a subset of the caller's; the super admin is
 * exempt. This is the one copy of that rule: every such action calls it; a change to a role, widening or
 * narrowing, needs {@link assertMayChangeRole}. Its twin for data scope,
 * {@link assertScopeWithin}, refuses (41005) a role given to users who would then see organisations the caller
 * does not: every path that gives a user a role, or widens a role someone holds, calls it.
 *
 * A target's codes are read from its role grants whatever the state of the user, its roles or its menus, so a
 * disabled administrator cannot be enabled (and then taken over) by a help-desk role: disabled grants come
 * back the moment someone re-enables them.
 */
import { DataScope, isInDataScope, type Repositories, type RoleScope } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import type { AdminActor } from './actor.js';
import { scopeBeyond } from './data-scope.js';
import { codesOfPermissionTexts } from './permission-codes.js';

type RankRepos = { repos: Pick<Repositories, 'users' | 'roles' | 'orgs'> };

/** Refuses (41001, `args.reason` = `rank`) unless every code in `targetCodes` is held by the caller. */
export async function assertOutranksCodes(actor: AdminActor, targetCodes: Iterable<string>): Promise<void> {
  if (actor.isSuperAdmin) return;
  const held = await actor.codes();
  for (const code of targetCodes) {
    if (!held.has(code)) throw new BusinessError(ErrorCode.NoPermission, { reason: 'rank' });
  }
}

/** Every code the roles of these users could grant (disabled roles and menus included). */
export async function potentialCodesOfUsers(deps: RankRepos, userIds: readonly number[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const roleIds = [...(await deps.repos.users.roleIdsOf(userIds)).values()].flat();
  return codesOfPermissionTexts(await deps.repos.roles.permissionsOfRoles(roleIds));
}

/**
 * Refuses an action on users who hold more than the caller: permission codes the caller lacks (41001), or roles
 * whose data scope reaches organisations the caller does not see (41005, {@link assertScopeWithin}): resetting
 * the password of someone whose role sees every organisation, and signing in as them, is seeing every
 * organisation.
 * @example await assertOutranksUsers(deps, actor, [targetId]);
 */
export async function assertOutranksUsers(
  deps: RankRepos,
  actor: AdminActor,
  userIds: readonly number[],
): Promise<void> {
  if (actor.isSuperAdmin) return;
  const others = userIds.filter((id) => id !== actor.userId);
  await assertOutranksCodes(actor, await potentialCodesOfUsers(deps, others));
  if (others.length === 0 || (await actor.scope()).all) return;
  const rolesOf = await deps.repos.users.roleIdsOf(others);
  // One read of every role involved, however many users a batch names.
  const scopes = await deps.repos.roles.scopesOfRoles([...rolesOf.values()].flat());
  const byId = new Map(scopes.map((scope) => [scope.roleId, scope]));
  // Each user against the roles they hold, and the organisation tree read once for all of them (a role's
  // 70,000 members were 70,000 reads of it).
  const held = (await deps.repos.users.findByIds(others)).map((user) => ({
    user,
    roles: (rolesOf.get(user.id) ?? []).flatMap((id) => byId.get(id) ?? []),
  }));
  await assertHeldScopesWithin(deps, actor, held);
}

/** Refuses (41001) a caller who does not hold every code the role grants (part of {@link assertMayChangeRole}). */
export async function assertOutranksRole(deps: RankRepos, actor: AdminActor, roleId: number): Promise<void> {
  if (actor.isSuperAdmin) return;
  await assertOutranksCodes(
    actor,
    codesOfPermissionTexts(await deps.repos.roles.permissionsOfRoles([roleId])),
  );
}

/**
 * Refuses any change to a role (its name or state, grants, data scope, deletion, purge, restore) by a caller who
 * does not outrank it: they must hold every code it grants (41001) and outrank every live member (41001 codes,
 * 41005 role scopes), every member must be inside their data scope (41005, `args.ids`), and the role's own scope
 * must not see beyond theirs (41005, {@link assertRoleSeesWithin}). Narrowing counts too:
 * disabling or stripping the role of an administrator above the caller is the first step of taking over their
 * account (their rank no longer protects them), and a role held outside the caller's scope changes what people
 * they cannot see may do.
 * @example await assertMayChangeRole(deps, actor, roleId);
 */
export async function assertMayChangeRole(deps: RankRepos, actor: AdminActor, roleId: number): Promise<void> {
  if (actor.isSuperAdmin) return;
  await assertOutranksRole(deps, actor, roleId);
  await assertRoleSeesWithin(deps, actor, roleId);
  await assertOutranksUsersInScope(
    deps,
    actor,
    await deps.repos.users.findByIds(await deps.repos.roles.memberIdsOf(roleId)),
  );
}

/**
 * Refuses (41005, `args.reason` = `data-scope`) a role whose own data scope reaches beyond the caller's, members
 * or not: scope All for a caller who does not see all, a Custom list naming organisations they do not see. (Org and
 * Org-and-children depend on the holder: the members' check covers them.) Without it, an administrator of one
 * branch could narrow, rename or delete the role through which the head office sees every organisation, as long
 * as nobody held it yet (part of {@link assertMayChangeRole}).
 */
async function assertRoleSeesWithin(deps: RankRepos, actor: AdminActor, roleId: number): Promise<void> {
  const mine = await actor.scope();
  if (mine.all) return;
  const own = (await deps.repos.roles.scopesOfRoles([roleId])).filter(
    (r) => r.dataScope === DataScope.All || r.dataScope === DataScope.Custom,
  );
  if (own.length === 0) return;
  const beyond = scopeBeyond(mine, own, { id: 0, orgId: null }, []);
  if (beyond === 'all' || beyond.length > 0)
    throw new BusinessError(ErrorCode.OutOfDataScope, {
      reason: 'data-scope',
      ...(beyond === 'all' ? {} : { orgIds: beyond }),
    });
}

/**
 * Refuses users the caller does not see (41005, `args.ids`) or does not outrank ({@link assertOutranksUsers}):
 * what a change reaching these people needs (a role they hold, a one-click action in their inbox).
 */
export async function assertOutranksUsersInScope(
  deps: RankRepos,
  actor: AdminActor,
  users: readonly { id: number; orgId: number | null }[],
): Promise<void> {
  if (actor.isSuperAdmin || users.length === 0) return;
  const scope = await actor.scope();
  const outside = users.filter((u) => !isInDataScope(scope, { orgId: u.orgId, ownerId: u.id }));
  if (outside.length > 0)
    throw new BusinessError(ErrorCode.OutOfDataScope, {
      reason: 'data-scope',
      ids: outside.map((u) => u.id),
    });
  await assertOutranksUsers(
    deps,
    actor,
    users.map((u) => u.id),
  );
}

/**
 * Refuses (41005 OutOfDataScope, `args.reason` = `data-scope`) unless every one of `users` would see, through
 * `roles` (as they are, or as a change would make them), only organisations the caller sees: a role of scope
 * All needs a caller who sees all; Custom lists, the user's organisation (Org) and its subtree (Org and
 * children) must lie within the caller's scope. The super admin and callers who see all are exempt.
 * @example await assertScopeWithin(deps, actor, await deps.repos.roles.scopesOfRoles(added), [{ id, orgId }]);
 */
export async function assertScopeWithin(
  deps: { repos: Pick<Repositories, 'orgs'> },
  actor: AdminActor,
  roles: readonly RoleScope[],
  users: readonly { id: number; orgId: number | null }[],
): Promise<void> {
  if (actor.isSuperAdmin || roles.length === 0 || users.length === 0) return;
  await assertHeldScopesWithin(
    deps,
    actor,
    users.map((user) => ({ user, roles })),
  );
}

/**
 * {@link assertScopeWithin} for users who each hold their own roles, in the order given (the first user beyond
 * the caller is the one refused). The organisation tree is read at most once, whatever the number of users.
 */
async function assertHeldScopesWithin(
  deps: { repos: Pick<Repositories, 'orgs'> },
  actor: AdminActor,
  held: readonly { user: { id: number; orgId: number | null }; roles: readonly RoleScope[] }[],
): Promise<void> {
  if (actor.isSuperAdmin || held.length === 0) return;
  const mine = await actor.scope();
  if (mine.all) return;
  const needsTree = held.some((h) => h.roles.some((r) => r.dataScope === DataScope.OrgAndChildren));
  const links = needsTree ? await deps.repos.orgs.links() : [];
  for (const { user, roles } of held) {
    if (roles.length === 0) continue;
    const beyond = scopeBeyond(mine, roles, user, links);
    if (beyond === 'all' || beyond.length > 0)
      throw new BusinessError(ErrorCode.OutOfDataScope, {
        reason: 'data-scope',
        ...(beyond === 'all' ? {} : { orgIds: beyond }),
      });
  }
}
