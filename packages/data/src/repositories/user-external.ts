/**
 * `sys_user_external`: identities at external OpenID providers bound to users. `(provider, subject)` is unique,
 * so one identity belongs to at most one user; a second bind of the same identity fails at the database even
 * when two requests race.
 */
import { and, asc, eq } from 'drizzle-orm';
import { isUniqueViolation } from '../errors.js';
import type { SysUserExternalRow } from '../rows.js';
import type { RepositoryContext } from './context.js';

export interface UserExternalRepository {
  /** The binding of an identity, if any. */
  find(provider: string, subject: string): Promise<SysUserExternalRow | undefined>;
  /** The user's bindings, oldest first. */
  listByUser(userId: number): Promise<SysUserExternalRow[]>;
  /**
   * Binds the identity to the user. Answers `'bound'`, `'same'` (already bound to this user) or `'taken'`
   * (bound to another user, also when a concurrent bind won the unique index).
   */
  bind(row: Omit<SysUserExternalRow, 'id'>): Promise<'bound' | 'same' | 'taken'>;
  /**
   * Binds the identity only while the user has none at that provider yet, checked and written in one
   * transaction under a lock on the user's row: two identities of one provider linked to one account at once
   * (linking by account name) bind one. Answers as {@link bind}, or `'boundThere'` when the user already has
   * another identity at the provider.
   */
  bindFirstAtProvider(
    row: Omit<SysUserExternalRow, 'id'>,
  ): Promise<'bound' | 'same' | 'taken' | 'boundThere'>;
  /** Removes the user's binding at the provider; true when one was removed. */
  unbind(userId: number, provider: string): Promise<boolean>;
}

export function createUserExternalRepository({
  db,
  adapter,
  tables,
}: RepositoryContext): UserExternalRepository {
  const t = tables.sysUserExternal;

  const repository: UserExternalRepository = {
    async find(provider, subject) {
      const rows = await db
        .select()
        .from(t)
        .where(and(eq(t.provider, provider), eq(t.subject, subject)));
      return rows[0];
    },

    async listByUser(userId) {
      return await db.select().from(t).where(eq(t.userId, userId)).orderBy(asc(t.createTime), asc(t.id));
    },

    async bind(row) {
      const existing = await repository.find(row.provider, row.subject);
      if (existing) return existing.userId === row.userId ? 'same' : 'taken';
      try {
        await adapter.insertReturningId(db, t, row);
        return 'bound';
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const winner = await repository.find(row.provider, row.subject);
        return winner?.userId === row.userId ? 'same' : 'taken';
      }
    },

    bindFirstAtProvider(row) {
      return adapter.transaction(db, async (tx) => {
        // The lock is the user's row (SQLite: BEGIN IMMEDIATE holds the file already); the reads follow it, so
        // they see what a link that held it before committed (InnoDB takes its snapshot at the first plain read).
        await adapter.lockRow(tx, tables.sysUser, row.userId);
        const [there] = await tx
          .select()
          .from(t)
          .where(and(eq(t.userId, row.userId), eq(t.provider, row.provider)));
        if (there) return there.subject === row.subject ? 'same' : 'boundThere';
        const [existing] = await tx
          .select()
          .from(t)
          .where(and(eq(t.provider, row.provider), eq(t.subject, row.subject)));
        if (existing) return 'taken';
        try {
          // In a savepoint: on PostgreSQL a unique violation would otherwise abort the whole transaction.
          await adapter.transaction(tx, (sp) => adapter.insertReturningId(sp, t, row));
          return 'bound';
        } catch (error) {
          // Another user's link of the same identity won the unique index.
          if (!isUniqueViolation(error)) throw error;
          return 'taken';
        }
      });
    },

    async unbind(userId, provider) {
      const result = await db.delete(t).where(and(eq(t.userId, userId), eq(t.provider, provider)));
      return adapter.affectedRows(result) > 0;
    },
  };
  return repository;
}
