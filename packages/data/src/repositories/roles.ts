/**
 * `sys_role` and its links: menu grants (`sys_role_menu`), the custom organisation list of a Custom data
 * scope (`sys_role_data_scope`) and members (`sys_user_role`). Link replacements run in one transaction.
 * Soft-deleted roles keep their links, so restoring one from the recycle bin brings its grants back.
 */
import { and, asc, count, desc, eq, type InferInsertModel, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { QueryDb } from '../dialect.js';
import { type Page, type PageQuery, paginate } from '../paging.js';
import type { DataScope, SysRoleRow } from '../rows.js';
import type { Tables } from '../tables.js';
import type { RepositoryContext } from './context.js';
import { containsIgnoreCase, restrictSort } from './filters.js';
import { insertLinks, readInChunks, writeAllInChunks, writeInChunks } from './id-lists.js';
import type { AuditStamp } from './users.js';

/** Values for a new role. */
export type NewRole = Omit<InferInsertModel<Tables['sysRole']>, 'id'>;

/** Role fields an administrator may change. */
export type RolePatch = Partial<Pick<SysRoleRow, 'name' | 'code' | 'sort' | 'enabled' | 'remark'>>;

/** Filters of the role page. */
export interface RolePageQuery extends PageQuery {
  name?: string | undefined;
  code?: string | undefined;
  enabled?: boolean | undefined;
}

/** The data scope of one enabled role of a user. */
export interface RoleScope {
  roleId: number;
  dataScope: DataScope;
  /** The role's organisation list (used by Custom). */
  customOrgIds: number[];
}

export interface RoleRepository {
  page(query: RolePageQuery): Promise<Page<SysRoleRow>>;
  findById(id: number, options?: { includeDeleted?: boolean }): Promise<SysRoleRow | undefined>;
  /** Live roles with these ids. */
  findByIds(ids: readonly number[]): Promise<SysRoleRow[]>;
  /** Whether a live role other than `exceptId` has this code (case-insensitive). */
  codeTaken(code: string, exceptId?: number): Promise<boolean>;
  insert(role: NewRole): Promise<number>;
  update(id: number, patch: RolePatch, stamp: AuditStamp): Promise<boolean>;
  softDelete(id: number, stamp: AuditStamp): Promise<boolean>;
  /** Soft-deletes the live roles among `ids` in one statement; answers how many. */
  softDeleteMany(ids: readonly number[], stamp: AuditStamp): Promise<number>;
  menuIdsOf(roleId: number): Promise<number[]>;
  /** Replaces the role's menu grants. */
  setMenus(roleId: number, menuIds: readonly number[]): Promise<void>;
  customOrgIdsOf(roleId: number): Promise<number[]>;
  /** Sets the scope type and replaces the custom organisation list. */
  setDataScope(
    roleId: number,
    dataScope: DataScope,
    orgIds: readonly number[],
    stamp: AuditStamp,
  ): Promise<void>;
  memberIdsOf(roleId: number): Promise<number[]>;
  /** Removes every role's grant of the menu (the menu was purged); answers how many roles had it. */
  dropMenuGrants(menuId: number): Promise<number>;
  /** Live roles granting this menu (a change to the menu's codes changes what they grant). */
  idsGrantingMenu(menuId: number): Promise<number[]>;
  /** Adds and removes members in one transaction, however many (written in chunks within it). */
  changeMembers(roleId: number, add: readonly number[], remove: readonly number[]): Promise<void>;
  /** Scopes of the user's enabled, live roles (one query per table, however many roles). */
  scopesOfUser(userId: number): Promise<RoleScope[]>;
  /**
   * Scopes of these roles, enabled or not (deleted ones only with `includeDeleted`): what they would let a
   * holder see once switched on (the grant check counts all of it, as `permissionsOfRoles` does for codes).
   */
  scopesOfRoles(roleIds: readonly number[], options?: { includeDeleted?: boolean }): Promise<RoleScope[]>;
  /**
   * Permission texts of every live menu granted to these roles, enabled or not: what the roles would grant
   * once everything is switched on (the escalation check counts all of it).
   */
  permissionsOfRoles(roleIds: readonly number[]): Promise<string[]>;
  pageDeleted(query: PageQuery): Promise<Page<SysRoleRow>>;
  restore(id: number, stamp: AuditStamp): Promise<boolean>;
  /** Hard-deletes a soft-deleted role with all its links. */
  purge(id: number): Promise<boolean>;
}

export function createRoleRepository({ db, adapter, tables }: RepositoryContext): RoleRepository {
  const { sysRole: t, sysRoleMenu: rm, sysRoleDataScope: rds, sysUserRole: ur, sysMenu: m } = tables;
  const sortable = [t.id, t.name, t.code, t.sort, t.enabled, t.dataScope, t.createTime, t.updateTime];
  const defaultOrder = [asc(t.sort), asc(t.id)];

  async function affected(result: PromiseLike<unknown>): Promise<boolean> {
    return adapter.affectedRows(await result) > 0;
  }

  /** The roles with their custom organisation lists (one query per chunk of roles, not one per role). */
  async function withCustomOrgs(roles: { roleId: number; dataScope: DataScope }[]): Promise<RoleScope[]> {
    const links = await readInChunks(
      roles.map((r) => r.roleId),
      (chunk) =>
        db.select({ roleId: rds.roleId, orgId: rds.orgId }).from(rds).where(inArray(rds.roleId, chunk)),
    );
    const orgsOf = new Map<number, number[]>();
    for (const link of links) {
      const orgs = orgsOf.get(link.roleId);
      if (orgs) orgs.push(link.orgId);
      else orgsOf.set(link.roleId, [link.orgId]);
    }
    return roles.map((r) => ({
      roleId: r.roleId,
      dataScope: r.dataScope,
      customOrgIds: orgsOf.get(r.roleId) ?? [],
    }));
  }

  return {
    page(query) {
      const where: (SQL | undefined)[] = [
        eq(t.isDelete, false),
        containsIgnoreCase(t.name, query.name),
        containsIgnoreCase(t.code, query.code),
        query.enabled !== undefined ? eq(t.enabled, query.enabled) : undefined,
      ];
      return paginate(
        { db, adapter },
        { table: t, where: and(...where), query: restrictSort(query, sortable), defaultOrder },
      );
    },

    async findById(id, options) {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.id, id), options?.includeDeleted ? undefined : eq(t.isDelete, false)));
      return row;
    },

    findByIds(ids) {
      return readInChunks(ids, (chunk) =>
        db
          .select()
          .from(t)
          .where(and(inArray(t.id, chunk), eq(t.isDelete, false))),
      );
    },

    async codeTaken(code, exceptId) {
      const [row] = await db
        .select({ n: count() })
        .from(t)
        .where(
          and(
            adapter.equalsIgnoreCase(t.code, code.trim()),
            eq(t.isDelete, false),
            exceptId !== undefined ? ne(t.id, exceptId) : undefined,
          ),
        );
      return Number(row?.n ?? 0) > 0;
    },

    insert(role) {
      return adapter.insertReturningId(db, t, role);
    },

    update(id, patch, stamp) {
      return affected(
        db
          .update(t)
          .set({ ...patch, updateTime: stamp.at, updateUserId: stamp.userId })
          .where(and(eq(t.id, id), eq(t.isDelete, false))),
      );
    },

    softDeleteMany(ids, stamp) {
      return writeAllInChunks({ db, adapter }, ids, (q, chunk) =>
        q
          .update(t)
          .set({ isDelete: true, updateTime: stamp.at, updateUserId: stamp.userId })
          .where(and(inArray(t.id, chunk), eq(t.isDelete, false))),
      );
    },

    softDelete(id, stamp) {
      return affected(
        db
          .update(t)
          .set({ isDelete: true, updateTime: stamp.at, updateUserId: stamp.userId })
          .where(and(eq(t.id, id), eq(t.isDelete, false))),
      );
    },

    async idsGrantingMenu(menuId) {
      const links = await db.select({ id: rm.roleId }).from(rm).where(eq(rm.menuId, menuId));
      const live = await readInChunks(
        links.map((l) => l.id),
        (chunk) =>
          db
            .select({ id: t.id })
            .from(t)
            .where(and(inArray(t.id, chunk), eq(t.isDelete, false)))
            .orderBy(asc(t.id)),
        (a, b) => a.id - b.id,
      );
      return live.map((r) => r.id);
    },

    async dropMenuGrants(menuId) {
      return adapter.affectedRows(await db.delete(rm).where(eq(rm.menuId, menuId)));
    },

    async menuIdsOf(roleId) {
      const rows = await db
        .select({ id: rm.menuId })
        .from(rm)
        .where(eq(rm.roleId, roleId))
        .orderBy(asc(rm.menuId));
      return rows.map((r) => r.id);
    },

    async setMenus(roleId, menuIds) {
      const unique = [...new Set(menuIds)];
      await adapter.transaction(db, async (tx) => {
        await tx.delete(rm).where(eq(rm.roleId, roleId));
        await insertLinks(
          tx,
          rm,
          unique.map((menuId) => ({ roleId, menuId })),
        );
      });
    },

    async customOrgIdsOf(roleId) {
      const rows = await db
        .select({ id: rds.orgId })
        .from(rds)
        .where(eq(rds.roleId, roleId))
        .orderBy(asc(rds.orgId));
      return rows.map((r) => r.id);
    },

    async setDataScope(roleId, dataScope, orgIds, stamp) {
      const unique = [...new Set(orgIds)];
      await adapter.transaction(db, async (tx) => {
        await tx
          .update(t)
          .set({ dataScope, updateTime: stamp.at, updateUserId: stamp.userId })
          .where(eq(t.id, roleId));
        await tx.delete(rds).where(eq(rds.roleId, roleId));
        await insertLinks(
          tx,
          rds,
          unique.map((orgId) => ({ roleId, orgId })),
        );
      });
    },

    async memberIdsOf(roleId) {
      const rows = await db
        .select({ id: ur.userId })
        .from(ur)
        .where(eq(ur.roleId, roleId))
        .orderBy(asc(ur.userId));
      return rows.map((r) => r.id);
    },

    async changeMembers(roleId, add, remove) {
      const adding = [...new Set(add)];
      const removing = [...new Set(remove)];
      if (adding.length === 0 && removing.length === 0) return;
      const without = (tx: QueryDb, userIds: number[]) =>
        tx.delete(ur).where(and(eq(ur.roleId, roleId), inArray(ur.userId, userIds)));
      // One transaction however many chunks the lists take: members change all at once or not at all.
      await adapter.transaction(db, async (tx) => {
        await writeInChunks(tx, adapter, removing, without);
        // Delete-then-insert keeps the composite key unique without a dialect-specific upsert.
        await writeInChunks(tx, adapter, adding, without);
        await insertLinks(
          tx,
          ur,
          adding.map((userId) => ({ userId, roleId })),
        );
      });
    },

    async scopesOfUser(userId) {
      const roles = await db
        .select({ roleId: t.id, dataScope: t.dataScope })
        .from(t)
        .where(
          and(
            eq(t.enabled, true),
            eq(t.isDelete, false),
            sql`${t.id} in (select ${ur.roleId} from ${ur} where ${eq(ur.userId, userId)})`,
          ),
        )
        .orderBy(asc(t.id));
      return withCustomOrgs(roles);
    },

    async scopesOfRoles(roleIds, options) {
      const roles = await readInChunks(
        roleIds,
        (chunk) =>
          db
            .select({ roleId: t.id, dataScope: t.dataScope })
            .from(t)
            .where(
              options?.includeDeleted
                ? inArray(t.id, chunk)
                : and(eq(t.isDelete, false), inArray(t.id, chunk)),
            )
            .orderBy(asc(t.id)),
        (a, b) => a.roleId - b.roleId,
      );
      return withCustomOrgs(roles);
    },

    async permissionsOfRoles(roleIds) {
      const rows = await readInChunks(roleIds, (chunk) =>
        db
          .select({ id: m.id, permission: m.permission })
          .from(m)
          .where(
            and(
              eq(m.isDelete, false),
              sql`${m.id} in (select ${rm.menuId} from ${rm} where ${inArray(rm.roleId, chunk)})`,
            ),
          ),
      );
      // A menu granted to roles of two chunks comes back from both: once per menu, as from one statement.
      const seen = new Set<number>();
      return rows.flatMap((r) => {
        if (!r.permission || seen.has(r.id)) return [];
        seen.add(r.id);
        return [r.permission];
      });
    },

    pageDeleted(query) {
      return paginate(
        { db, adapter },
        {
          table: t,
          where: eq(t.isDelete, true),
          query: restrictSort(query, sortable),
          defaultOrder: [desc(t.updateTime), desc(t.id)],
        },
      );
    },

    restore(id, stamp) {
      return affected(
        db
          .update(t)
          .set({ isDelete: false, updateTime: stamp.at, updateUserId: stamp.userId })
          .where(and(eq(t.id, id), eq(t.isDelete, true))),
      );
    },

    purge(id) {
      return adapter.transaction(db, async (tx) => {
        const result = await tx.delete(t).where(and(eq(t.id, id), eq(t.isDelete, true)));
        if (adapter.affectedRows(result) === 0) return false;
        await tx.delete(rm).where(eq(rm.roleId, id));
        await tx.delete(rds).where(eq(rds.roleId, id));
        await tx.delete(ur).where(eq(ur.roleId, id));
        return true;
      });
    },
  };
}
