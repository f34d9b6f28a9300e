/**
 * Rank: nobody acts above their own. An action on another user (password reset, enable/disable, MFA clear,
 * forced logout, role assignment, edit, delete) or a change that widens a role (menus, data scope) is refused
 * (41001) when the target's effective permission codes are not a subset of the caller's; the super admin is
 * exempt. This is the one copy of that rule: every such action calls it.
 *
 * A target's codes are read from its role grants whatever the state of the user, its roles or its menus, so a
 * disabled administrator cannot be enabled (and then taken over) by a help-desk role: disabled grants come
 * back the moment someone re-enables them.
 */
import type { Repositories } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import type { AdminActor } from './actor.js';
import { codesOfPermissionTexts } from './permission-codes.js';

type RankRepos = { repos: Pick<Repositories, 'users' | 'roles'> };

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
 * Refuses (41001) an action on users whose effective permissions are not a subset of the caller's.
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
}

/** Refuses (41001) a change that widens a role whose grants are not a subset of the caller's. */
export async function assertOutranksRole(deps: RankRepos, actor: AdminActor, roleId: number): Promise<void> {
  if (actor.isSuperAdmin) return;
  await assertOutranksCodes(
    actor,
    codesOfPermissionTexts(await deps.repos.roles.permissionsOfRoles([roleId])),
  );
}
