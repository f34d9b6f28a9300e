/**
 * TOTP bindings: the sealed seed and bind time on `sys_user`, and the recovery codes of
 * `sys_totp_recovery_code` (only hashes). Binding and clearing touch both tables in one transaction, and every
 * write that decides a race is one conditional statement, so concurrent requests cannot both win: a seed is
 * stored only while none is (`totp_secret IS NULL`), a recovery code is used only while unused
 * (`used_time IS NULL`), a recovery clears only the seed its code belonged to (`totp_secret = <that seed>`).
 */
import { and, asc, count, eq, gt, isNull, notLike } from 'drizzle-orm';
import type { QueryDb } from '../dialect.js';
import type { RepositoryContext } from './context.js';

/** Who cleared a binding and when (audit columns of `sys_user`). */
export interface TotpClearStamp {
  /** The administrator, or null when the user cleared it with a recovery code. */
  userId: number | null;
  at: Date;
}

export interface TotpRepository {
  /**
   * Stores a sealed seed for a user that has none, and replaces the user's recovery codes with `codeHashes`,
   * in one transaction. False (and nothing written) when the user is unknown, deleted or already bound.
   */
  bind(userId: number, sealedSecret: string, codeHashes: readonly string[], at: Date): Promise<boolean>;
  /**
   * Removes the seed and every recovery code of the user; false when the user is unknown. With `sealedSecret`,
   * only while that is the stored seed (a recovery clears the binding its code belonged to, never a newer one):
   * otherwise false, and nothing removed.
   */
  clear(userId: number, stamp: TotpClearStamp, only?: { sealedSecret: string }): Promise<boolean>;
  /** Marks one unused recovery code of the user as used; true only for the one call that did. */
  consumeRecoveryCode(userId: number, codeHash: string, at: Date): Promise<boolean>;
  /** Recovery codes of the user not used yet. */
  countUnusedRecoveryCodes(userId: number): Promise<number>;
  /**
   * Replaces, in one pass over the table, every stored value not starting with `k` for which `wrap` answers a
   * new one, each by one conditional statement (`code_hash = <the value read>`): an instance doing the same at
   * once changes each row at most once between them, and a second pass finds nothing. Answers the rows changed.
   */
  rewrapRecoveryCodes(wrap: (stored: string) => string | undefined): Promise<number>;
}

/** Rows read per page by `rewrapRecoveryCodes`. */
const REWRAP_PAGE = 500;

export function createTotpRepository({ db, adapter, tables }: RepositoryContext): TotpRepository {
  const u = tables.sysUser;
  const rc = tables.sysTotpRecoveryCode;

  async function deleteCodes(tx: QueryDb, userId: number): Promise<void> {
    await tx.delete(rc).where(eq(rc.userId, userId));
  }

  return {
    bind(userId, sealedSecret, codeHashes, at) {
      return adapter.transaction(db, async (tx) => {
        const result = await tx
          .update(u)
          .set({ totpSecret: sealedSecret, totpBoundTime: at })
          .where(and(eq(u.id, userId), eq(u.isDelete, false), isNull(u.totpSecret)));
        if (adapter.affectedRows(result) === 0) return false;
        await deleteCodes(tx, userId);
        if (codeHashes.length > 0) {
          await tx
            .insert(rc)
            .values(codeHashes.map((codeHash) => ({ userId, codeHash, usedTime: null, createTime: at })));
        }
        return true;
      });
    },

    clear(userId, stamp, only) {
      return adapter.transaction(db, async (tx) => {
        const result = await tx
          .update(u)
          .set({ totpSecret: null, totpBoundTime: null, updateTime: stamp.at, updateUserId: stamp.userId })
          .where(and(eq(u.id, userId), only ? eq(u.totpSecret, only.sealedSecret) : undefined));
        const cleared = adapter.affectedRows(result) > 0;
        if (cleared || !only) await deleteCodes(tx, userId);
        return cleared;
      });
    },

    async consumeRecoveryCode(userId, codeHash, at) {
      const result = await db
        .update(rc)
        .set({ usedTime: at })
        .where(and(eq(rc.userId, userId), eq(rc.codeHash, codeHash), isNull(rc.usedTime)));
      return adapter.affectedRows(result) > 0;
    },

    async countUnusedRecoveryCodes(userId) {
      const [row] = await db
        .select({ n: count() })
        .from(rc)
        .where(and(eq(rc.userId, userId), isNull(rc.usedTime)));
      return Number(row?.n ?? 0);
    },

    async rewrapRecoveryCodes(wrap) {
      let changed = 0;
      let after = 0;
      for (;;) {
        const page = await adapter.page(
          db
            .select({ id: rc.id, codeHash: rc.codeHash })
            .from(rc)
            .where(and(gt(rc.id, after), notLike(rc.codeHash, 'k%')))
            .orderBy(asc(rc.id)),
          0,
          REWRAP_PAGE,
        );
        for (const row of page) {
          const next = wrap(row.codeHash);
          if (next === undefined || next === row.codeHash) continue;
          const result = await db
            .update(rc)
            .set({ codeHash: next })
            .where(and(eq(rc.id, row.id), eq(rc.codeHash, row.codeHash)));
          changed += adapter.affectedRows(result);
        }
        const last = page.at(-1);
        if (!last || page.length < REWRAP_PAGE) return changed;
        after = Number(last.id);
      }
    },
  };
}
