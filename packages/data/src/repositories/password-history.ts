/**
 * `sys_password_history` (spec "Password history"): only hashes, per user, trimmed to the newest N after
 * every write; surplus rows are hard-deleted.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { RepositoryContext } from './context.js';

export interface PasswordHistoryRepository {
  /** Records `passwordHash` for the user, then keeps only the newest `keep` rows (0 deletes them all). */
  add(userId: number, passwordHash: string, keep: number, at: Date): Promise<void>;
  /** Keeps only the newest `keep` rows of the user; returns how many were deleted. */
  trim(userId: number, keep: number): Promise<number>;
  /** The newest `limit` hashes of the user, newest first. */
  listNewest(userId: number, limit: number): Promise<string[]>;
}

export function createPasswordHistoryRepository({
  db,
  adapter,
  tables,
}: RepositoryContext): PasswordHistoryRepository {
  const t = tables.sysPasswordHistory;
  const newestFirst = [desc(t.createTime), desc(t.id)];

  const repository: PasswordHistoryRepository = {
    async add(userId, passwordHash, keep, at) {
      if (keep > 0) await adapter.insertReturningId(db, t, { userId, passwordHash, createTime: at });
      await repository.trim(userId, keep);
    },

    async trim(userId, keep) {
      if (!Number.isSafeInteger(keep) || keep < 0) throw new RangeError(`keep must be >= 0, got ${keep}`);
      if (keep === 0) return adapter.affectedRows(await db.delete(t).where(eq(t.userId, userId)));
      // History is at most `historyCount` (<= 100) rows plus one per write, so the ids fit one IN list.
      const rows = await db
        .select({ id: t.id })
        .from(t)
        .where(eq(t.userId, userId))
        .orderBy(...newestFirst);
      const surplus = rows.slice(keep).map((r) => r.id);
      if (surplus.length === 0) return 0;
      return adapter.affectedRows(
        await db.delete(t).where(and(eq(t.userId, userId), inArray(t.id, surplus))),
      );
    },

    async listNewest(userId, limit) {
      if (limit <= 0) return [];
      const rows = await adapter.page(
        db
          .select({ hash: t.passwordHash })
          .from(t)
          .where(eq(t.userId, userId))
          .orderBy(...newestFirst),
        0,
        limit,
      );
      return rows.map((r) => r.hash);
    },
  };
  return repository;
}
