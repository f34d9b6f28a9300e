/**
 * `sys_session`: the source of truth of every login session (spec "Session and refresh token"). A session is
 * revoked by setting `revoked_at` once; every write that could race with a revocation is conditional on
 * `revoked_at IS NULL`, so its affected-row count tells the caller whether the session was still live.
 */
import { guidV7 } from '@svc/kernel';
import { and, desc, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { SysSessionRow } from '../rows.js';
import { truncate } from '../text.js';
import type { RepositoryContext } from './context.js';
import { readInChunks, writeAllInChunks } from './id-lists.js';

/** Column widths of `sys_session` (every dialect but SQLite would reject longer values). */
const ACCOUNT_MAX = 64;
const IP_MAX = 64;
const USER_AGENT_MAX = 500;
const REASON_MAX = 64;

/** A session to insert. */
export interface NewSession {
  /** GUID v7. @default guidV7(createTime) */
  id?: string;
  userId: number;
  account: string;
  ip?: string | null;
  userAgent?: string | null;
  /** Opened through a second factor (selects `IdleMinutesMfa`). @default false */
  isMfa?: boolean;
  createTime: Date;
  /** @default createTime */
  lastActivityTime?: Date;
  /** Absolute end of the session; null = none. @default null */
  absoluteExpiresAt?: Date | null;
}

export interface SessionRepository {
  /** Inserts a session and returns its id. */
  insert(session: NewSession): Promise<string>;
  /** The row, revoked or not. */
  findById(id: string): Promise<SysSessionRow | undefined>;
  /** The rows of these ids that exist, revoked or not, in no particular order (any number of ids). */
  findByIds(ids: readonly string[]): Promise<SysSessionRow[]>;
  /** Records activity; false when the session does not exist or is revoked (the liveness re-check). */
  touch(id: string, at: Date): Promise<boolean>;
  /** Revokes one session; true only for the call that revoked it (false when absent or already revoked). */
  revoke(id: string, reason: string, at: Date): Promise<boolean>;
  /** Revokes every live session of a user, optionally but one; returns the ids it revoked. */
  revokeAllOfUser(
    userId: number,
    reason: string,
    at: Date,
    options?: { exceptSessionId?: string },
  ): Promise<string[]>;
  /** Live (not revoked) sessions of a user, newest first. */
  listLive(userId: number): Promise<SysSessionRow[]>;
  /**
   * Revokes all but the newest `keep` live sessions of a user (by create time, then id: GUID v7 ids sort by
   * time); returns the ids it revoked. Run after inserting a new session, so concurrent logins converge.
   */
  trimToNewest(userId: number, keep: number, reason: string, at: Date): Promise<string[]>;
}

export function createSessionRepository({ db, adapter, tables }: RepositoryContext): SessionRepository {
  const t = tables.sysSession;
  const newestFirst = [desc(t.createTime), desc(t.id)];

  /** Revokes the given ids where still live and answers them all: one a concurrent call revoked first is
   * reported too, which is harmless (callers only drop cache entries and tokens of revoked sessions). */
  async function revokeIds(ids: string[], reason: string, at: Date): Promise<string[]> {
    await writeAllInChunks({ db, adapter }, ids, (q, chunk) =>
      q
        .update(t)
        .set({ revokedAt: at, revokeReason: truncate(reason, REASON_MAX) })
        .where(and(inArray(t.id, chunk), isNull(t.revokedAt))),
    );
    return ids;
  }

  return {
    async insert(session) {
      const id = session.id ?? guidV7(session.createTime.getTime());
      await db.insert(t).values({
        id,
        userId: session.userId,
        account: truncate(session.account, ACCOUNT_MAX),
        ip: session.ip == null ? null : truncate(session.ip, IP_MAX),
        userAgent: session.userAgent == null ? null : truncate(session.userAgent, USER_AGENT_MAX),
        isMfa: session.isMfa ?? false,
        createTime: session.createTime,
        lastActivityTime: session.lastActivityTime ?? session.createTime,
        absoluteExpiresAt: session.absoluteExpiresAt ?? null,
        revokedAt: null,
        revokeReason: null,
      });
      return id;
    },

    async findById(id) {
      const [row] = await db.select().from(t).where(eq(t.id, id));
      return row;
    },

    findByIds(ids) {
      return readInChunks(ids, (chunk) => db.select().from(t).where(inArray(t.id, chunk)));
    },

    async touch(id, at) {
      const result = await db
        .update(t)
        .set({ lastActivityTime: at })
        .where(and(eq(t.id, id), isNull(t.revokedAt)));
      return adapter.affectedRows(result) > 0;
    },

    async revoke(id, reason, at) {
      const result = await db
        .update(t)
        .set({ revokedAt: at, revokeReason: truncate(reason, REASON_MAX) })
        .where(and(eq(t.id, id), isNull(t.revokedAt)));
      return adapter.affectedRows(result) > 0;
    },

    async revokeAllOfUser(userId, reason, at, options) {
      const except = options?.exceptSessionId;
      const live = await db
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.userId, userId), isNull(t.revokedAt), except ? ne(t.id, except) : undefined));
      return revokeIds(
        live.map((r) => r.id),
        reason,
        at,
      );
    },

    async listLive(userId) {
      return await db
        .select()
        .from(t)
        .where(and(eq(t.userId, userId), isNull(t.revokedAt)))
        .orderBy(...newestFirst);
    },

    async trimToNewest(userId, keep, reason, at) {
      if (!Number.isSafeInteger(keep) || keep < 0) throw new RangeError(`keep must be >= 0, got ${keep}`);
      // A user has a handful of live sessions, so reading their ids and cutting in code is cheaper and more
      // portable than a dialect's window function or OFFSET inside a sub-select (MySQL refuses LIMIT there).
      const live = await db
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.userId, userId), isNull(t.revokedAt)))
        .orderBy(...newestFirst);
      return revokeIds(
        live.slice(keep).map((r) => r.id),
        reason,
        at,
      );
    },
  };
}
