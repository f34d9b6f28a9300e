/**
 * Menu administration: the catalog/menu/button tree, create, update, delete (refused while children exist,
 * 42016). Permission texts are normalised on save. A parent must be the root (0) or a live catalog or menu,
 * and a move may not put a node under itself (42030). Every update or delete invalidates all cached codes,
 * since the menu may be granted; an update that would switch on codes under an existing grant is refused for
 * a caller who does not hold them (41001).
 */
import type { SysMenuRow } from '@svc/data';
import { splitPermissionCodes } from '@svc/data';
import { BusinessError, type ErrorCodeMember } from '@svc/kernel';
import { type AdminActor, assertCanGrant } from './actor.js';
import { AdminErrorCode } from './codes.js';
import type { ResolvedAdminDeps } from './deps.js';
import type { Patch } from './patch.js';
import { normalizePermissionText } from './permission-codes.js';
import { assertMayChangeRole } from './rank.js';
import { buildTree, type TreeNode, wouldCreateCycle } from './tree.js';

/** A menu as the administration API shows it (contract §5 menu node, without children). */
/** A menu as the administration shows it (`permission`: codes joined by `;`; `moduleId`: the portal module of a
 * top-level menu, children follow their top-level ancestor). */
export type MenuItem = Pick<
  SysMenuRow,
  | 'id'
  | 'parentId'
  | 'type'
  | 'title'
  | 'permission'
  | 'path'
  | 'component'
  | 'icon'
  | 'sort'
  | 'enabled'
  | 'hidden'
  | 'moduleId'
  | 'remark'
>;

export type MenuNode = TreeNode<MenuItem>;

export type MenuFields = Patch<Omit<MenuItem, 'id'>>;

export interface CreateMenuInput extends MenuFields {
  type: MenuItem['type'];
  title: string;
}

export interface MenuAdminService {
  tree(actor: AdminActor): Promise<MenuNode[]>;
  create(actor: AdminActor, input: CreateMenuInput): Promise<{ id: number }>;
  update(actor: AdminActor, id: number, input: MenuFields): Promise<void>;
  remove(actor: AdminActor, id: number): Promise<void>;
}

export function toMenuItem(row: SysMenuRow): MenuItem {
  return {
    id: row.id,
    parentId: row.parentId,
    type: row.type,
    title: row.title,
    permission: row.permission,
    path: row.path,
    component: row.component,
    icon: row.icon,
    sort: row.sort,
    enabled: row.enabled,
    hidden: row.hidden,
    moduleId: row.moduleId,
    remark: row.remark,
  };
}

const fail = (member: ErrorCodeMember, args?: Record<string, unknown>) => new BusinessError(member, args);

export function createMenuAdminService(deps: ResolvedAdminDeps): MenuAdminService {
  const { repos, now, permissions } = deps;
  const stamp = (actor: AdminActor) => ({ userId: actor.userId, at: now() });

  async function checkParent(parentId: number): Promise<void> {
    if (parentId === 0) return;
    const parent = await repos.menus.findById(parentId);
    if (!parent || parent.type === 'button') throw fail(AdminErrorCode.MenuInvalidParent);
  }

  async function checkModule(moduleId: number | null | undefined): Promise<void> {
    if (moduleId === undefined || moduleId === null) return;
    if (!(await repos.modules.findById(moduleId))) throw fail(AdminErrorCode.ModuleNotFound);
  }

  function clean(input: MenuFields): Record<string, unknown> {
    const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    if (input.permission !== undefined) patch.permission = normalizePermissionText(input.permission);
    return patch;
  }

  /** {@link assertMayChangeRole} for every live role granting the menu. */
  async function assertMayChangeRoles(actor: AdminActor, menuId: number): Promise<void> {
    if (actor.isSuperAdmin) return;
    for (const roleId of await repos.roles.idsGrantingMenu(menuId))
      await assertMayChangeRole(deps, actor, roleId);
  }

  return {
    async tree() {
      return buildTree((await repos.menus.listAll()).map(toMenuItem));
    },

    async create(actor, input) {
      const parentId = input.parentId ?? 0;
      await checkParent(parentId);
      await checkModule(input.moduleId);
      const at = now();
      // A new menu is granted to nobody, so its codes need no escalation check until a role is given it.
      const id = await repos.menus.insert({
        ...clean(input),
        parentId,
        type: input.type,
        title: input.title,
        createTime: at,
        createUserId: actor.userId,
      });
      await deps.menusChanged();
      return { id };
    },

    async update(actor, id, input) {
      const row = await repos.menus.findById(id);
      if (!row) throw fail(AdminErrorCode.MenuNotFound);
      if (input.parentId !== undefined && input.parentId !== row.parentId) {
        await checkParent(input.parentId);
        if (wouldCreateCycle(await repos.menus.listAll(), id, input.parentId))
          throw fail(AdminErrorCode.MenuInvalidParent);
      }
      if (input.moduleId !== row.moduleId) await checkModule(input.moduleId);
      const patch = clean(input);
      const before = row.enabled ? new Set(splitPermissionCodes(row.permission)) : new Set<string>();
      const enabled = input.enabled ?? row.enabled;
      const after = enabled
        ? splitPermissionCodes(
            input.permission !== undefined ? (patch.permission as string | null) : row.permission,
          )
        : [];
      await assertCanGrant(
        actor,
        after.filter((code) => !before.has(code)),
      );
      // What the menu grants is what its roles grant: narrowing it (dropping codes, disabling it) or widening it
      // changes those roles, so it needs rank over each of them and their members (stripping the menu of an
      // administrator's role was a way round the role routes' rule).
      if (after.length !== before.size || after.some((code) => !before.has(code)))
        await assertMayChangeRoles(actor, id);
      await repos.menus.update(id, patch, stamp(actor));
      await permissions.invalidateAll();
    },

    async remove(actor, id) {
      const row = await repos.menus.findById(id);
      if (!row) throw fail(AdminErrorCode.MenuNotFound);
      if (await repos.menus.hasChildren(id)) throw fail(AdminErrorCode.MenuHasChildren);
      if (row.enabled && splitPermissionCodes(row.permission).length > 0)
        await assertMayChangeRoles(actor, id);
      await repos.menus.softDelete(id, stamp(actor));
      await permissions.invalidateAll();
    },
  };
}
