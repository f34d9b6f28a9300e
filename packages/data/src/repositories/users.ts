/**
 * `sys_user` access needed by the foundation: counting, lookup by account (trimmed, case-insensitive) or id,
 * insert, the password fields and what a login records. Later features (user management) extend this file.
 */
import { and, asc, count, eq, type InferInsertModel, isNull } from 'drizzle-orm';
import type { SysUserRow } from '../rows.js';
import type { Tables } from '../tables.js';
import { truncate } from '../text.js';
import type { RepositoryContext } from './context.js';

/** Width of `sys_user.last_login_ip`. */
const LAST_LOGIN_IP_MAX = 64;

/** Values for a new user (`id` is generated; audit and flags have defaults). */
export type NewUser = Omit<InferInsertModel<Tables['sysUser']>, 'id'>;

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

export interface UserRepository {
  /** Every row, soft-deleted ones included (the first-start seed's "table is empty" test). */
  countAll(): Promise<number>;
  /** Rows that are not soft-deleted. */
  countLive(): Promise<number>;
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
}

export function createUserRepository({ db, adapter, tables }: RepositoryContext): UserRepository {
  const t = tables.sysUser;
  const live = (includeDeleted: boolean | undefined) => (includeDeleted ? undefined : eq(t.isDelete, false));

  return {
    async countAll() {
      const [row] = await db.select({ n: count() }).from(t);
      return Number(row?.n ?? 0);
    },

    async countLive() {
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
  };
}
