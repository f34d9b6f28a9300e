/**
 * Permission codes of a user (contract §4): the union over the enabled, not-deleted menus granted through
 * `sys_role_menu` to the user's enabled, not-deleted roles (`sys_user_role`). A menu button's `permission`
 * holds several codes joined by `;`. A disabled or deleted user has none. One query, however many roles.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { RepositoryContext } from './context.js';

export interface PermissionRepository {
  /** The distinct codes of the user, sorted; empty for an unknown, disabled or deleted user. */
  codesOfUser(userId: number): Promise<string[]>;
  /** True for an existing, enabled, not-deleted user. */
  isActiveUser(userId: number): Promise<boolean>;
}

/** Splits a stored `permission` value into its codes: `;`-separated, trimmed, empty parts dropped. */
export function splitPermissionCodes(permission: string | null | undefined): string[] {
  if (!permission) return [];
  return permission
    .split(';')
    .map((code) => code.trim())
    .filter((code) => code.length > 0);
}

export function createPermissionRepository({ db, tables }: RepositoryContext): PermissionRepository {
  const { sysMenu: m, sysRoleMenu: rm, sysRole: r, sysUserRole: ur, sysUser: u } = tables;

  return {
    async codesOfUser(userId) {
      // Booleans go through `eq(column, value)` so that each dialect's column encoder binds them (SQLite has
      // no boolean type; a bare `true` parameter would not bind there).
      const grantedMenuIds = sql`select ${rm.menuId} from ${rm}
        inner join ${r} on ${r.id} = ${rm.roleId}
        inner join ${ur} on ${ur.roleId} = ${r.id}
        inner join ${u} on ${u.id} = ${ur.userId}
        where ${and(
          eq(ur.userId, userId),
          eq(r.enabled, true),
          eq(r.isDelete, false),
          eq(u.enabled, true),
          eq(u.isDelete, false),
        )}`;
      const rows = await db
        .select({ permission: m.permission })
        .from(m)
        .where(and(eq(m.enabled, true), eq(m.isDelete, false), sql`${m.id} in (${grantedMenuIds})`));
      const codes = new Set<string>();
      for (const row of rows) for (const code of splitPermissionCodes(row.permission)) codes.add(code);
      return [...codes].sort();
    },

    async isActiveUser(userId) {
      const rows = await db
        .select({ id: u.id })
        .from(u)
        .where(and(eq(u.id, userId), eq(u.enabled, true), eq(u.isDelete, false)));
      return rows.length > 0;
    },
  };
}
