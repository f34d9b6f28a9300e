/**
 * Role administration: page, detail, create, update, delete; menu grants, data scope and members. Every
 * change that alters what someone may do invalidates the permission cache (all users for grants and role
 * state, the touched users for membership), so it applies on their next request. Escalation: a caller other
 * than the super admin can only hand out codes they hold (menu grants, enabling a role, adding members), can
 * widen a data scope only within their own (a role's scope as it applies to each member: enabling it, adding
 * members, changing it), and cannot change the super admin's roles. Any change to a role itself (fields, state,
 * grants, scope, deletion) needs a caller who outranks it and all its members, every member inside the caller's
 * data scope ({@link assertMayChangeRole}): narrowing a higher role is how its holders are then taken over.
 */
import {
  DataScope,
  isInDataScope,
  type Page,
  type RolePageQuery,
  type SysRoleRow,
  uniqueOr,
} from '@svc/data';
import { BusinessError, ErrorCode, type ErrorCodeMember } from '@svc/kernel';
import { normalizeAccountName } from './account-name.js';
import { type AdminActor, assertCanGrant } from './actor.js';
import { AdminErrorCode } from './codes.js';
import type { ResolvedAdminDeps } from './deps.js';
import type { Patch } from './patch.js';
import { codesOfPermissionTexts } from './permission-codes.js';
import { assertMayChangeRole, assertOutranksUsers, assertScopeWithin } from './rank.js';

/** A role as the administration API shows it. */

/** Members a change of a role's member list invalidates one by one; more get one generation bump. */
const MEMBER_INVALIDATIONS = 200;

/** A role as the administration shows it (`dataScope`: 1 All, 2 own Org, 3 Org and children, 4 Self, 5 Custom,
 * contract §4). */
export type RoleItem = Pick<
  SysRoleRow,
  'id' | 'name' | 'code' | 'dataScope' | 'sort' | 'enabled' | 'remark' | 'createTime' | 'updateTime'
>;

export type RoleFields = Patch<Pick<SysRoleRow, 'name' | 'code' | 'sort' | 'enabled' | 'remark'>>;

export interface CreateRoleInput extends RoleFields {
  name: string;
  code: string;
}

/** A role's data scope as `GET/PUT /sys/role/{id}/datascope` carry it. */
export interface RoleDataScope {
  scopeType: DataScope;
  customOrgIds: number[];
}

export interface RoleAdminService {
  page(actor: AdminActor, query: RolePageQuery): Promise<Page<RoleItem>>;
  detail(actor: AdminActor, id: number): Promise<RoleItem>;
  /** New roles start with the narrowest scope (Self) and no grants. */
  create(actor: AdminActor, input: CreateRoleInput): Promise<{ id: number }>;
  update(actor: AdminActor, id: number, input: RoleFields): Promise<void>;
  remove(actor: AdminActor, id: number): Promise<void>;
  /** Deletes several roles, all or nothing: any unknown id refuses the batch (42002 naming the ids). */
  removeMany(actor: AdminActor, ids: readonly number[]): Promise<number>;
  menus(actor: AdminActor, id: number): Promise<number[]>;
  setMenus(actor: AdminActor, id: number, menuIds: readonly number[]): Promise<void>;
  dataScope(actor: AdminActor, id: number): Promise<RoleDataScope>;
  setDataScope(actor: AdminActor, id: number, scope: RoleDataScope): Promise<void>;
  /** Members inside the caller's data scope. */
  members(actor: AdminActor, id: number): Promise<number[]>;
  /**
   * Makes the members inside the caller's scope exactly `userIds` (all of which must be in scope); members
   * outside the scope are left alone.
   */
  setMembers(actor: AdminActor, id: number, userIds: readonly number[]): Promise<void>;
}

export function toRoleItem(row: SysRoleRow): RoleItem {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    dataScope: row.dataScope,
    sort: row.sort,
    enabled: row.enabled,
    remark: row.remark,
    createTime: row.createTime,
    updateTime: row.updateTime,
  };
}

const fail = (member: ErrorCodeMember, args?: Record<string, unknown>) => new BusinessError(member, args);

export function createRoleAdminService(deps: ResolvedAdminDeps): RoleAdminService {
  const { repos, now, permissions } = deps;
  const stamp = (actor: AdminActor) => ({ userId: actor.userId, at: now() });

  /**
   * The role's menu grants, split into live menus and menus in the recycle bin; a grant of a menu that is gone (a
   * purge before purges took grants along) is neither, and a save drops it.
   */
  async function grantsOf(roleId: number): Promise<{ live: number[]; deleted: number[] }> {
    const ids = await repos.roles.menuIdsOf(roleId);
    const live = new Set((await repos.menus.findByIds(ids)).map((m) => m.id));
    const gone = ids.filter((m) => !live.has(m));
    const deleted = gone.length > 0 ? await repos.trash.deletedIds('sysMenu', gone) : [];
    return { live: ids.filter((m) => live.has(m)), deleted };
  }

  async function role(id: number): Promise<SysRoleRow> {
    const row = await repos.roles.findById(id);
    if (!row) throw fail(AdminErrorCode.RoleNotFound);
    return row;
  }

  async function codesOfRole(id: number): Promise<string[]> {
    return codesOfPermissionTexts(await repos.roles.permissionsOfRoles([id]));
  }

  /** The role's live members with their organisations (whose scope the role's data scope follows). */
  async function membersOf(id: number): Promise<{ id: number; orgId: number | null }[]> {
    return repos.users.findByIds(await repos.roles.memberIdsOf(id));
  }

  return {
    async page(_actor, query) {
      const page = await repos.roles.page(query);
      return { ...page, items: page.items.map(toRoleItem) };
    },

    async detail(_actor, id) {
      return toRoleItem(await role(id));
    },

    async create(actor, input) {
      const code = normalizeAccountName(input.code, 'code');
      if (await repos.roles.codeTaken(code)) throw fail(AdminErrorCode.RoleCodeExists);
      const at = now();
      const id = await uniqueOr(
        () =>
          repos.roles.insert({
            name: input.name,
            code,
            sort: input.sort ?? 0,
            enabled: input.enabled ?? true,
            remark: input.remark ?? null,
            dataScope: DataScope.Self,
            createTime: at,
            createUserId: actor.userId,
          }),
        () => fail(AdminErrorCode.RoleCodeExists),
      );
      return { id };
    },

    async update(actor, id, input) {
      const row = await role(id);
      await assertMayChangeRole(deps, actor, id);
      // A new code follows the rules of account names (no invisible, bidirectional or mixed-script lookalike of
      // another role's code; full-width forms fold); the role's own code, as stored, saves unchanged.
      const code =
        input.code === undefined || input.code.trim() === row.code
          ? input.code?.trim()
          : normalizeAccountName(input.code, 'code');
      if (code !== undefined && (await repos.roles.codeTaken(code, id)))
        throw fail(AdminErrorCode.RoleCodeExists);
      if (input.enabled === true && !row.enabled) {
        await assertCanGrant(actor, await codesOfRole(id));
        await assertScopeWithin(deps, actor, await repos.roles.scopesOfRoles([id]), await membersOf(id));
      }
      const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
      if (code !== undefined) patch.code = code;
      await uniqueOr(
        () => repos.roles.update(id, patch, stamp(actor)),
        () => fail(AdminErrorCode.RoleCodeExists),
      );
      if (input.enabled !== undefined && input.enabled !== row.enabled) await permissions.invalidateAll();
    },

    async remove(actor, id) {
      await role(id);
      await assertMayChangeRole(deps, actor, id);
      await repos.roles.softDelete(id, stamp(actor));
      await permissions.invalidateAll();
    },

    async removeMany(actor, ids) {
      const unique = [...new Set(ids)];
      const rows = await repos.roles.findByIds(unique);
      const missing = unique.filter((id) => !rows.some((r) => r.id === id));
      if (missing.length > 0) throw fail(AdminErrorCode.RoleNotFound, { ids: missing });
      for (const id of unique) await assertMayChangeRole(deps, actor, id);
      const deleted = await repos.roles.softDeleteMany(unique, stamp(actor));
      await permissions.invalidateAll();
      return deleted;
    },

    async menus(_actor, id) {
      await role(id);
      // Grants of menus in the recycle bin stay (a restore brings them back) but are not shown: the role's form
      // saves what it was shown, and a deleted id in it answered 42015.
      return (await grantsOf(id)).live;
    },

    async setMenus(actor, id, menuIds) {
      await role(id);
      const unique = [...new Set(menuIds)];
      const found = await repos.menus.findByIds(unique);
      const missing = unique.filter((m) => !found.some((f) => f.id === m));
      if (missing.length > 0) throw fail(AdminErrorCode.MenuNotFound, { ids: missing });
      const current = await grantsOf(id);
      const added = found.filter((m) => !current.live.includes(m.id));
      await assertMayChangeRole(deps, actor, id);
      await assertCanGrant(actor, codesOfPermissionTexts(added.map((m) => m.permission)));
      await repos.roles.setMenus(id, [...unique, ...current.deleted]);
      await permissions.invalidateAll();
    },

    async dataScope(_actor, id) {
      const row = await role(id);
      const customOrgIds = row.dataScope === DataScope.Custom ? await repos.roles.customOrgIdsOf(id) : [];
      return { scopeType: row.dataScope, customOrgIds };
    },

    async setDataScope(actor, id, scope) {
      await role(id);
      await assertMayChangeRole(deps, actor, id);
      const orgIds = scope.scopeType === DataScope.Custom ? [...new Set(scope.customOrgIds)] : [];
      const existing = await repos.orgs.existingIds(orgIds);
      const missing = orgIds.filter((o) => !existing.includes(o));
      if (missing.length > 0) throw fail(AdminErrorCode.OrgNotFound, { ids: missing });
      if (!actor.isSuperAdmin) {
        // Nobody widens a role beyond what they see themselves.
        const mine = await actor.scope();
        if (scope.scopeType === DataScope.All && !mine.all) throw fail(ErrorCode.OutOfDataScope);
        const outside = orgIds.filter((orgId) => !isInDataScope(mine, { orgId }));
        if (outside.length > 0) throw fail(ErrorCode.OutOfDataScope, { ids: outside });
      }
      // Org and Org-and-children follow each member's organisation: none may come to see beyond the caller.
      const widened = { roleId: id, dataScope: scope.scopeType, customOrgIds: orgIds };
      await assertScopeWithin(deps, actor, [widened], await membersOf(id));
      await repos.roles.setDataScope(id, scope.scopeType, orgIds, stamp(actor));
    },

    async members(actor, id) {
      await role(id);
      const ids = await repos.roles.memberIdsOf(id);
      const scope = await actor.scope();
      const rows = await repos.users.findByIds(ids);
      return rows
        .filter((u) => isInDataScope(scope, { orgId: u.orgId, ownerId: u.id }))
        .map((u) => u.id)
        .sort((a, b) => a - b);
    },

    async setMembers(actor, id, userIds) {
      await role(id);
      const wanted = [...new Set(userIds)];
      const scope = await actor.scope();
      // A user outside the scope is named with the missing ones (contract §11: ids cannot be counted).
      const rows = (await repos.users.findByIds(wanted)).filter((r) =>
        isInDataScope(scope, { orgId: r.orgId, ownerId: r.id }),
      );
      const found = new Set(rows.map((r) => r.id));
      const missing = wanted.filter((u) => !found.has(u));
      if (missing.length > 0) throw fail(AdminErrorCode.UserNotFound, { ids: missing });

      // Sets, not list scans: a role may have tens of thousands of members, and scanning them once per wanted
      // or removed user was quadratic.
      const current = await repos.users.findByIds(await repos.roles.memberIdsOf(id));
      const visible = current.filter((u) => isInDataScope(scope, { orgId: u.orgId, ownerId: u.id }));
      const isMember = new Set(current.map((c) => c.id));
      const isWanted = new Set(wanted);
      const add = wanted.filter((u) => !isMember.has(u));
      const leaving = visible.filter((u) => !isWanted.has(u.id));
      const remove = leaving.map((u) => u.id);
      const isAdded = new Set(add);
      const touched = [...rows.filter((r) => isAdded.has(r.id)), ...leaving];
      if (touched.some((u) => u.isSuperAdmin) && !actor.isSuperAdmin)
        throw fail(AdminErrorCode.SuperAdminProtected);
      await assertOutranksUsers(
        deps,
        actor,
        touched.map((u) => u.id),
      );
      if (add.length > 0) {
        await assertCanGrant(actor, await codesOfRole(id));
        const added = rows.filter((r) => isAdded.has(r.id));
        await assertScopeWithin(deps, actor, await repos.roles.scopesOfRoles([id]), added);
      }
      await repos.roles.changeMembers(id, add, remove);
      const changed = [...add, ...remove];
      // Past a few hundred users, one generation bump: invalidating each was a cache round trip a user (emptying a
      // role of 70,000 took ~10 s on Redis inside the request), while after a bump each user reloads once, at their
      // next request, as after any menu change.
      if (changed.length > MEMBER_INVALIDATIONS) await permissions.invalidateAll();
      else for (const userId of changed) await permissions.invalidateUser(userId);
    },
  };
}
