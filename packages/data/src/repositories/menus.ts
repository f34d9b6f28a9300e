/**
 * `sys_menu`: the catalog/menu/button tree. A button's `permission` holds several codes joined by `;`.
 * Reads for the admin tree and the personal menu (enabled menus granted through the user's enabled roles),
 * writes with audit columns, soft delete.
 */
import { and, asc, eq, type InferInsertModel, inArray, sql } from 'drizzle-orm';
import type { SysMenuRow } from '../rows.js';
import type { Tables } from '../tables.js';
import type { RepositoryContext } from './context.js';
import { readInChunks } from './id-lists.js';
import { hasLiveChildren, softDeleteLiveRow, updateLiveRow } from './live-rows.js';
import type { AuditStamp } from './users.js';

/** Values for a new menu. */
export type NewMenu = Omit<InferInsertModel<Tables['sysMenu']>, 'id'>;

/** Menu fields an administrator may change. */
export type MenuPatch = Partial<
  Pick<
    SysMenuRow,
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
  >
>;

export interface MenuRepository {
  /** Every live menu, by sort then id. */
  listAll(): Promise<SysMenuRow[]>;
  findById(id: number): Promise<SysMenuRow | undefined>;
  /** Live menus with these ids. */
  findByIds(ids: readonly number[]): Promise<SysMenuRow[]>;
  insert(menu: NewMenu): Promise<number>;
  update(id: number, patch: MenuPatch, stamp: AuditStamp): Promise<boolean>;
  softDelete(id: number, stamp: AuditStamp): Promise<boolean>;
  /** Whether a live menu has this parent. */
  hasChildren(id: number): Promise<boolean>;
  /** Enabled live menus granted to the user through enabled live roles, by sort then id. */
  grantedToUser(userId: number): Promise<SysMenuRow[]>;
}

export function createMenuRepository(ctx: RepositoryContext): MenuRepository {
  const { db, adapter, tables } = ctx;
  const { sysMenu: t, sysRoleMenu: rm, sysRole: r, sysUserRole: ur } = tables;
  const order = [asc(t.sort), asc(t.id)];

  return {
    async listAll() {
      return await db
        .select()
        .from(t)
        .where(eq(t.isDelete, false))
        .orderBy(...order);
    },

    async findById(id) {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.id, id), eq(t.isDelete, false)));
      return row;
    },

    findByIds(ids) {
      return readInChunks(
        ids,
        (chunk) =>
          db
            .select()
            .from(t)
            .where(and(inArray(t.id, chunk), eq(t.isDelete, false)))
            .orderBy(...order),
        (a, b) => a.sort - b.sort || a.id - b.id,
      );
    },

    insert(menu) {
      return adapter.insertReturningId(db, t, menu);
    },

    update(id, patch, stamp) {
      return updateLiveRow(ctx, t, id, patch, stamp);
    },

    softDelete(id, stamp) {
      return softDeleteLiveRow(ctx, t, id, stamp);
    },

    hasChildren(id) {
      return hasLiveChildren(ctx, t, id);
    },

    async grantedToUser(userId) {
      const granted = sql`select ${rm.menuId} from ${rm}
        inner join ${r} on ${r.id} = ${rm.roleId}
        inner join ${ur} on ${ur.roleId} = ${r.id}
        where ${and(eq(ur.userId, userId), eq(r.enabled, true), eq(r.isDelete, false))}`;
      return await db
        .select()
        .from(t)
        .where(and(eq(t.enabled, true), eq(t.isDelete, false), sql`${t.id} in (${granted})`))
        .orderBy(...order);
    },
  };
}
