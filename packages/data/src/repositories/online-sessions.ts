/**
 * The online-session list (contract §5 "Sessions"): sessions that are not revoked, not past their absolute
 * end, and still hold an active, unexpired refresh token (without one the session cannot outlive its last
 * access token). Optionally limited to one user and to the users inside a data scope.
 */
import { and, desc, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type Page, type PageQuery, paginate } from '../paging.js';
import { RefreshTokenStatus, type SysSessionRow } from '../rows.js';
import type { RepositoryContext } from './context.js';
import { type DataScopeFilter, dataScopeCondition } from './data-scope.js';
import { restrictSort } from './filters.js';
import { readInChunks } from './id-lists.js';

/** A live session with the expiry of its active refresh token. */
export interface OnlineSessionRow extends SysSessionRow {
  /** When the session ends without further activity: its refresh expiry, capped by its absolute end. */
  expiresAt: Date | null;
}

/** Filters of the online list. */
export interface OnlineSessionQuery extends PageQuery {
  userId?: number | undefined;
}

export interface OnlineSessionRepository {
  /** One page of online sessions of users inside `scope`, newest first. */
  page(query: OnlineSessionQuery, scope: DataScopeFilter, now: Date): Promise<Page<OnlineSessionRow>>;
  /** Online sessions of one user, newest first. */
  listOfUser(userId: number, now: Date): Promise<OnlineSessionRow[]>;
  /** The session if it is online now. */
  findOnline(sessionId: string, now: Date): Promise<OnlineSessionRow | undefined>;
}

export function createOnlineSessionRepository({
  db,
  adapter,
  tables,
}: RepositoryContext): OnlineSessionRepository {
  const { sysSession: s, sysRefreshToken: rt, sysUser: u } = tables;
  const sortable = [s.createTime, s.lastActivityTime, s.userId, s.account, s.ip];

  function online(now: Date): SQL | undefined {
    return and(
      isNull(s.revokedAt),
      or(isNull(s.absoluteExpiresAt), gt(s.absoluteExpiresAt, now)),
      sql`exists (select 1 from ${rt} where ${rt.sessionId} = ${s.id} and ${and(
        eq(rt.status, RefreshTokenStatus.Active),
        gt(rt.expiresAt, now),
      )})`,
    );
  }

  async function withExpiry(rows: SysSessionRow[], now: Date): Promise<OnlineSessionRow[]> {
    if (rows.length === 0) return [];
    const tokens = await readInChunks(
      rows.map((r) => r.id),
      (chunk) =>
        db
          .select({ sessionId: rt.sessionId, expiresAt: rt.expiresAt })
          .from(rt)
          .where(
            and(
              inArray(rt.sessionId, chunk),
              eq(rt.status, RefreshTokenStatus.Active),
              gt(rt.expiresAt, now),
            ),
          ),
    );
    const latest = new Map<string, Date>();
    for (const token of tokens) {
      const seen = latest.get(token.sessionId);
      if (!seen || token.expiresAt > seen) latest.set(token.sessionId, token.expiresAt);
    }
    return rows.map((row) => {
      const refresh = latest.get(row.id) ?? null;
      const cap = row.absoluteExpiresAt;
      const expiresAt =
        refresh && cap ? new Date(Math.min(cap.getTime(), refresh.getTime())) : (refresh ?? cap);
      return { ...row, expiresAt };
    });
  }

  return {
    async page(query, scope, now) {
      const scoped = dataScopeCondition(scope, { org: u.orgId, owner: u.id });
      const where = and(
        online(now),
        query.userId !== undefined ? eq(s.userId, query.userId) : undefined,
        scoped ? sql`${s.userId} in (select ${u.id} from ${u} where ${scoped})` : undefined,
      );
      const page = await paginate(
        { db, adapter },
        {
          table: s,
          where,
          query: restrictSort(query, sortable),
          defaultOrder: [desc(s.createTime), desc(s.id)],
        },
      );
      return { ...page, items: await withExpiry(page.items, now) };
    },

    async listOfUser(userId, now) {
      const rows = await db
        .select()
        .from(s)
        .where(and(eq(s.userId, userId), online(now)))
        .orderBy(desc(s.createTime), desc(s.id));
      return withExpiry(rows, now);
    },

    async findOnline(sessionId, now) {
      const [row] = await db
        .select()
        .from(s)
        .where(and(eq(s.id, sessionId), online(now)));
      return row ? (await withExpiry([row], now))[0] : undefined;
    },
  };
}
