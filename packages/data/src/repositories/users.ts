/**
 * `sys_user` access needed by the foundation: counting, lookup by account (trimmed, case-insensitive) or id,
 * insert, and the password fields. Later features (user management) extend this file.
 */
import { and, asc, count, eq, type InferInsertModel } from 'drizzle-orm';
import type { SysUserRow } from '../rows.js';
import type { Tables } from '../tables.js';
import type { RepositoryContext } from './context.js';

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
  };
}
