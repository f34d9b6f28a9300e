/**
 * `sys_refresh_token`: SHA-256 hashes of refresh tokens and their state (`Active` 1 → `Used` 2, or → `Revoked`
 * 3; contract §2). Rotation is guarded by one conditional UPDATE that succeeds only while the row is still
 * `Active`, so of any number of concurrent refreshes of one token exactly one wins, on every dialect.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { RefreshTokenStatus, type SysRefreshTokenRow } from '../rows.js';
import type { RepositoryContext } from './context.js';
import { writeAllInChunks } from './id-lists.js';

/** A refresh token to store (always `Active`). */
export interface NewRefreshTokenRecord {
  sessionId: string;
  /** Lower-case hex SHA-256 of the token. */
  tokenHash: string;
  expiresAt: Date;
  createTime: Date;
}

export interface RefreshTokenRepository {
  /** Stores an `Active` token and returns its id. */
  insert(token: NewRefreshTokenRecord): Promise<number>;
  findByHash(tokenHash: string): Promise<SysRefreshTokenRow | undefined>;
  /** The tokens of a session, oldest first (admin views and tests). */
  listBySession(sessionId: string): Promise<SysRefreshTokenRow[]>;
  /**
   * `Active` → `Used`, only while still `Active`: true for exactly one caller. This is the concurrency guard
   * of rotation; a false answer means another refresh won (or the token was revoked) meanwhile.
   */
  markUsedIfActive(id: number, usedTime: Date): Promise<boolean>;
  /** Every `Active` token of a session → `Revoked`; returns how many. */
  revokeAllOfSession(sessionId: string): Promise<number>;
  /** Every `Active` token of the given sessions → `Revoked`; returns how many. */
  revokeAllOfSessions(sessionIds: readonly string[]): Promise<number>;
  /** Every `Active` token of every session of a user → `Revoked`; returns how many. */
  revokeAllOfUser(userId: number): Promise<number>;
}

export function createRefreshTokenRepository({
  db,
  adapter,
  tables,
}: RepositoryContext): RefreshTokenRepository {
  const t = tables.sysRefreshToken;
  const s = tables.sysSession;

  function revokeSessions(sessionIds: readonly string[]): Promise<number> {
    return writeAllInChunks({ db, adapter }, sessionIds, (q, chunk) =>
      q
        .update(t)
        .set({ status: RefreshTokenStatus.Revoked })
        .where(and(inArray(t.sessionId, chunk), eq(t.status, RefreshTokenStatus.Active))),
    );
  }

  return {
    insert(token) {
      return adapter.insertReturningId(db, t, {
        sessionId: token.sessionId,
        tokenHash: token.tokenHash,
        status: RefreshTokenStatus.Active,
        expiresAt: token.expiresAt,
        createTime: token.createTime,
        usedTime: null,
      });
    },

    async findByHash(tokenHash) {
      const [row] = await db.select().from(t).where(eq(t.tokenHash, tokenHash));
      return row;
    },

    async listBySession(sessionId) {
      return await db.select().from(t).where(eq(t.sessionId, sessionId)).orderBy(asc(t.id));
    },

    async markUsedIfActive(id, usedTime) {
      const result = await db
        .update(t)
        .set({ status: RefreshTokenStatus.Used, usedTime })
        .where(and(eq(t.id, id), eq(t.status, RefreshTokenStatus.Active)));
      return adapter.affectedRows(result) > 0;
    },

    revokeAllOfSession(sessionId) {
      return revokeSessions([sessionId]);
    },

    revokeAllOfSessions(sessionIds) {
      return revokeSessions(sessionIds);
    },

    async revokeAllOfUser(userId) {
      // One statement whatever the number of sessions the user ever had. The sub-select reads another table
      // than the one updated, which every dialect (MySQL included) allows.
      const result = await db
        .update(t)
        .set({ status: RefreshTokenStatus.Revoked })
        .where(
          and(
            eq(t.status, RefreshTokenStatus.Active),
            sql`${t.sessionId} in (select ${s.id} from ${s} where ${eq(s.userId, userId)})`,
          ),
        );
      return adapter.affectedRows(result);
    },
  };
}
