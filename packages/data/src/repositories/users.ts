/**
 * `sys_user` access: counting, lookup by account (trimmed, case-insensitive) or id, insert, the password fields
 * and what a login records; and for user administration the scoped page, writes with role links, soft delete,
 * enable/disable and the recycle-bin reads (soft-deleted rows stay queryable).
 */
import { and, asc, count, desc, eq, gt, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { QueryDb } from '../dialect.js';
import { type Page, type PageQuery, paginate } from '../paging.js';
import type { SysUserRow } from '../rows.js';
import type { Tables } from '../tables.js';
import { truncate } from '../text.js';
import type { RepositoryContext } from './context.js';
import { type DataScopeFilter, dataScopeCondition } from './data-scope.js';
import { containsIgnoreCase, restrictSort } from './filters.js';
import { insertLinks, readInChunks, writeAllInChunks } from './id-lists.js';
import { type ImportBatch, writeImportBatch } from './users-import.js';

export type { ImportBatch } from './users-import.js';

import type { AuditStamp, NewUser, UserPatch } from './user-types.js';

export type { AuditStamp, NewUser, UserPatch } from './user-types.js';

/** Width of `sys_user.last_login_ip`. */
const LAST_LOGIN_IP_MAX = 64;

/** A password change: the new hash and the policy fields that go with it. */
export interface PasswordChange {
  password: string;
  lastPasswordChangeTime: Date | null;
  mustChangePassword: boolean;
  updateUserId?: number | null;
  /** @default now */
  updateTime?: Date;
}

/** Lookup options. */
export interface FindUserOptions {
  /** Also return a soft-deleted user. @default false */
  includeDeleted?: boolean;
}

/** Filters of the user page (contract §5) on top of the paging query. */
export interface UserPageQuery extends PageQuery {
  /** Account contains (case-insensitive). */
  account?: string | undefined;
  /** Real name contains (case-insensitive). */
  name?: string | undefined;
  orgId?: number | undefined;
  /** Users holding this role. */
  roleId?: number | undefined;
  enabled?: boolean | undefined;
  /**
   * Only users whose id is above this one: the pages after the first of a read by id (an export), which neither
   * repeats nor skips a user while others are created or deleted, as pages by offset do. Not a route parameter.
   */
  afterId?: number | undefined;
}

export interface UserRepository {
  /** Every row, soft-deleted ones included (the first-start seed's "table is empty" test). */
  countAll(): Promise<number>;
  /** Rows that are not soft-deleted. */
  countLive(): Promise<number>;
  /** Ids of the live, enabled super administrators (who job alerts reach). */
  superAdminIds(): Promise<number[]>;
  /** The user whose account equals `account` after trimming, ignoring case; the oldest if several match. */
  findByAccount(account: string, options?: FindUserOptions): Promise<SysUserRow | undefined>;
  findById(id: number, options?: FindUserOptions): Promise<SysUserRow | undefined>;
  /** Inserts and returns the new id. */
  insert(user: NewUser): Promise<number>;
  /** Stores a new password hash; false when no such user exists. */
  updatePassword(id: number, change: PasswordChange): Promise<boolean>;
  /** Records a successful login (`last_login_time`, `last_login_ip`). */
  recordLogin(id: number, login: { at: Date; ip: string | null }): Promise<boolean>;
  /** Sets or clears the must-change-password flag. */
  setMustChangePassword(id: number, value: boolean): Promise<boolean>;
  /**
   * Fills a null `last_password_change_time` (the password-expiry anchor) with `at`; false when it was
   * already set, so a concurrent login cannot move an anchor another one filled.
   */
  fillPasswordChangeTime(id: number, at: Date): Promise<boolean>;
  /**
   * Replaces the stored hash only while it still equals `expected` (silent rehash at login): a password
   * changed meanwhile is never overwritten by the old one in a new form. Leaves the expiry anchor alone.
   */
  replacePasswordHash(id: number, expected: string, next: string): Promise<boolean>;

  /** One page of live users matching the filters, inside `scope`. Ordered newest first unless sorted. */
  page(query: UserPageQuery, scope: DataScopeFilter): Promise<Page<SysUserRow>>;
  /** The users with these ids (live only unless asked), however many: a role's members can be 100,000. */
  findByIds(ids: readonly number[], options?: FindUserOptions): Promise<SysUserRow[]>;
  /** Whether a live user other than `exceptId` has this account (trimmed, case-insensitive). */
  accountTaken(account: string, exceptId?: number): Promise<boolean>;
  /** Inserts a user and its role links in one transaction; returns the new id. */
  insertWithRoles(user: NewUser, roleIds: readonly number[]): Promise<number>;
  /** Updates profile fields and, when given, replaces the role links, in one transaction. */
  update(id: number, patch: UserPatch, stamp: AuditStamp, roleIds?: readonly number[]): Promise<boolean>;
  /** Role ids per user, ascending, users ascending (users without roles are absent); any number of users. */
  roleIdsOf(userIds: readonly number[]): Promise<Map<number, number[]>>;
  /** Soft-deletes live users; returns how many changed. */
  softDelete(ids: readonly number[], stamp: AuditStamp): Promise<number>;
  /** Live users of an organisation. */
  countInOrg(orgId: number): Promise<number>;
  /** One page of soft-deleted users inside `scope` (the recycle bin), most recently deleted first. */
  pageDeleted(query: PageQuery, scope: DataScopeFilter): Promise<Page<SysUserRow>>;
  /** Brings a soft-deleted user back; false when it is not in the recycle bin. */
  restore(id: number, stamp: AuditStamp): Promise<boolean>;
  /** Hard-deletes a soft-deleted user with its role links, password history and recovery codes. */
  purge(id: number): Promise<boolean>;
  /**
   * Live users whose account equals one of `accounts` ignoring case (import: duplicates in the database and
   * overwrite targets). Looked up in slices, so 10,000 names are fine.
   */
  findLiveByAccounts(accounts: readonly string[]): Promise<SysUserRow[]>;
  /**
   * Writes an import in ONE transaction: the created users (with their role links and first password-history
   * row) and the updated ones (profile and, when given, role links). Nothing is written when any statement fails.
   */
  importBatch(batch: ImportBatch): Promise<{ createdIds: number[]; updated: number }>;
}

/** The `sys_counter` row of live users (the migration `user_counter` creates it and its triggers). */
export const LIVE_USERS = 'sys_user.live';

/** Columns a user page may be sorted by (never the hash, the TOTP secret or other secrets). */
function userSortColumns(t: Tables['sysUser']) {
  return [
    t.id,
    t.account,
    t.realName,
    t.nickName,
    t.orgId,
    t.positionId,
    t.phone,
    t.email,
    t.gender,
    t.enabled,
    t.createTime,
    t.updateTime,
    t.lastLoginTime,
  ];
}

export function createUserRepository({ db, adapter, tables }: RepositoryContext): UserRepository {
  const t = tables.sysUser;
  const ur = tables.sysUserRole;
  const c = tables.sysCounter;
  const live = (includeDeleted: boolean | undefined) => (includeDeleted ? undefined : eq(t.isDelete, false));
  const sortable = userSortColumns(t);
  const inScope = (scope: DataScopeFilter) => dataScopeCondition(scope, { org: t.orgId, owner: t.id });

  /**
   * Live users, from the `sys_user.live` row of `sys_counter` that the database's triggers keep exact in the
   * transaction of every write to `sys_user`. Undefined when the row is missing (a DBA removed it): callers count.
   */
  async function liveCount(): Promise<number | undefined> {
    const [row] = await db.select({ value: c.value }).from(c).where(eq(c.name, LIVE_USERS));
    return row === undefined ? undefined : Number(row.value);
  }

  async function replaceRoles(tx: QueryDb, userId: number, roleIds: readonly number[]): Promise<void> {
    await tx.delete(ur).where(eq(ur.userId, userId));
    const unique = [...new Set(roleIds)];
    await insertLinks(
      tx,
      ur,
      unique.map((roleId) => ({ userId, roleId })),
    );
  }

  return {
    async superAdminIds() {
      const rows = await db
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.isSuperAdmin, true), eq(t.enabled, true), eq(t.isDelete, false)));
      return rows.map((r) => r.id);
    },
    async countAll() {
      const [row] = await db.select({ n: count() }).from(t);
      return Number(row?.n ?? 0);
    },

    async countLive() {
      const counted = await liveCount();
      if (counted !== undefined) return counted;
      const [row] = await db.select({ n: count() }).from(t).where(eq(t.isDelete, false));
      return Number(row?.n ?? 0);
    },

    async findByAccount(account, options) {
      const wanted = account.trim();
      if (!wanted) return undefined;
      const rows = await adapter.page(
        db
          .select()
          .from(t)
          .where(and(adapter.equalsIgnoreCase(t.account, wanted), live(options?.includeDeleted)))
          .orderBy(asc(t.id)),
        0,
        1,
      );
      return rows[0];
    },

    async findById(id, options) {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.id, id), live(options?.includeDeleted)));
      return row;
    },

    insert(user) {
      return adapter.insertReturningId(db, t, user);
    },

    async updatePassword(id, change) {
      const result = await db
        .update(t)
        .set({
          password: change.password,
          lastPasswordChangeTime: change.lastPasswordChangeTime,
          mustChangePassword: change.mustChangePassword,
          updateTime: change.updateTime ?? new Date(),
          ...(change.updateUserId !== undefined ? { updateUserId: change.updateUserId } : {}),
        })
        .where(eq(t.id, id));
      return adapter.affectedRows(result) > 0;
    },

    async recordLogin(id, login) {
      const ip = login.ip == null ? null : truncate(login.ip, LAST_LOGIN_IP_MAX);
      const result = await db.update(t).set({ lastLoginTime: login.at, lastLoginIp: ip }).where(eq(t.id, id));
      return adapter.affectedRows(result) > 0;
    },

    async setMustChangePassword(id, value) {
      const result = await db.update(t).set({ mustChangePassword: value }).where(eq(t.id, id));
      return adapter.affectedRows(result) > 0;
    },

    async fillPasswordChangeTime(id, at) {
      const result = await db
        .update(t)
        .set({ lastPasswordChangeTime: at })
        .where(and(eq(t.id, id), isNull(t.lastPasswordChangeTime)));
      return adapter.affectedRows(result) > 0;
    },

    async replacePasswordHash(id, expected, next) {
      const result = await db
        .update(t)
        .set({ password: next })
        .where(and(eq(t.id, id), eq(t.password, expected)));
      return adapter.affectedRows(result) > 0;
    },

    async page(query, scope) {
      const unfiltered =
        scope.all &&
        !query.account?.trim() &&
        !query.name?.trim() &&
        query.orgId === undefined &&
        query.enabled === undefined &&
        query.roleId === undefined &&
        query.afterId === undefined;
      const where: (SQL | undefined)[] = [
        eq(t.isDelete, false),
        containsIgnoreCase(t.account, query.account),
        containsIgnoreCase(t.realName, query.name),
        query.orgId !== undefined ? eq(t.orgId, query.orgId) : undefined,
        query.enabled !== undefined ? eq(t.enabled, query.enabled) : undefined,
        query.roleId !== undefined
          ? sql`${t.id} in (select ${ur.userId} from ${ur} where ${eq(ur.roleId, query.roleId)})`
          : undefined,
        query.afterId !== undefined ? gt(t.id, query.afterId) : undefined,
        inScope(scope),
      ];
      // Newest first by id: ids grow with creation, and the primary key (or the org index, which ends in the
      // id) serves this order without sorting the table.
      return paginate(
        { db, adapter },
        {
          table: t,
          where: and(...where),
          query: restrictSort(query, sortable),
          defaultOrder: [desc(t.id)],
          // Every live user: the counter the database keeps (sys_counter), not a COUNT that grows with the table.
          total: unfiltered ? liveCount : undefined,
        },
      );
    },

    findByIds(ids, options) {
      return readInChunks(ids, (chunk) =>
        db
          .select()
          .from(t)
          .where(and(inArray(t.id, chunk), live(options?.includeDeleted))),
      );
    },

    async accountTaken(account, exceptId) {
      const wanted = account.trim();
      const [row] = await db
        .select({ n: count() })
        .from(t)
        .where(
          and(
            adapter.equalsIgnoreCase(t.account, wanted),
            eq(t.isDelete, false),
            exceptId !== undefined ? ne(t.id, exceptId) : undefined,
          ),
        );
      return Number(row?.n ?? 0) > 0;
    },

    insertWithRoles(user, roleIds) {
      return adapter.transaction(db, async (tx) => {
        const id = await adapter.insertReturningId(tx, t, user);
        await replaceRoles(tx, id, roleIds);
        return id;
      });
    },

    update(id, patch, stamp, roleIds) {
      return adapter.transaction(db, async (tx) => {
        const result = await tx
          .update(t)
          .set({ ...patch, updateTime: stamp.at, updateUserId: stamp.userId })
          .where(and(eq(t.id, id), eq(t.isDelete, false)));
        if (adapter.affectedRows(result) === 0) return false;
        if (roleIds) await replaceRoles(tx, id, roleIds);
        return true;
      });
    },

    async roleIdsOf(userIds) {
      const byUser = new Map<number, number[]>();
      const rows = await readInChunks(
        userIds,
        (chunk) =>
          db
            .select({ userId: ur.userId, roleId: ur.roleId })
            .from(ur)
            .where(inArray(ur.userId, chunk))
            .orderBy(asc(ur.userId), asc(ur.roleId)),
        (a, b) => a.userId - b.userId || a.roleId - b.roleId,
      );
      for (const row of rows) {
        const held = byUser.get(row.userId);
        if (held) held.push(row.roleId);
        else byUser.set(row.userId, [row.roleId]);
      }
      return byUser;
    },

    softDelete(ids, stamp) {
      return writeAllInChunks({ db, adapter }, ids, (q, chunk) =>
        q
          .update(t)
          .set({ isDelete: true, updateTime: stamp.at, updateUserId: stamp.userId })
          .where(and(inArray(t.id, chunk), eq(t.isDelete, false))),
      );
    },

    async countInOrg(orgId) {
      const [row] = await db
        .select({ n: count() })
        .from(t)
        .where(and(eq(t.orgId, orgId), eq(t.isDelete, false)));
      return Number(row?.n ?? 0);
    },

    pageDeleted(query, scope) {
      return paginate(
        { db, adapter },
        {
          table: t,
          where: and(eq(t.isDelete, true), inScope(scope)),
          query: restrictSort(query, sortable),
          defaultOrder: [desc(t.updateTime), desc(t.id)],
        },
      );
    },

    async restore(id, stamp) {
      const result = await db
        .update(t)
        .set({ isDelete: false, updateTime: stamp.at, updateUserId: stamp.userId })
        .where(and(eq(t.id, id), eq(t.isDelete, true)));
      return adapter.affectedRows(result) > 0;
    },

    findLiveByAccounts(accounts) {
      return readInChunks(
        accounts.map((a) => a.trim().toLowerCase()),
        (chunk) =>
          db
            .select()
            .from(t)
            .where(and(inArray(sql`lower(${t.account})`, chunk), eq(t.isDelete, false))),
      );
    },

    importBatch(batch) {
      return writeImportBatch({ db, adapter, tables }, batch);
    },

    purge(id) {
      const { sysPasswordHistory: ph, sysTotpRecoveryCode: rc, sysUserExternal: ux } = tables;
      return adapter.transaction(db, async (tx) => {
        const result = await tx.delete(t).where(and(eq(t.id, id), eq(t.isDelete, true)));
        if (adapter.affectedRows(result) === 0) return false;
        await tx.delete(ur).where(eq(ur.userId, id));
        await tx.delete(ph).where(eq(ph.userId, id));
        await tx.delete(rc).where(eq(rc.userId, id));
        await tx.delete(ux).where(eq(ux.userId, id));
        return true;
      });
    },
  };
}
