/**
 * `sys_notice`, `sys_notice_receiver` and `sys_notice_read` (module `Notice`). Receivers of a Role or User notice
 * are user ids resolved at publish time (a role's members then), so a user who joins the role later does not get
 * it; an "All" notice has no receiver rows and reaches every user. Notices are soft-deleted; receiver and read rows
 * stay (a restored notice comes back as it was) and every read joins live notices only, so a deleted notice
 * vanishes from every inbox at once.
 *
 * Unread count, per user: live "All" notices + live notices the user receives − the user's reads of live notices.
 * Each term is an index range (`sys_notice_live_kind_idx`, `sys_notice_receiver_receiver_idx`,
 * `sys_notice_read_user_idx`) whose size depends on the notices, never on the number of users. A read row is
 * written only for a notice the user can see (`isVisibleTo`), which keeps the subtraction exact.
 *
 * A notice belongs to the data scope of its sender (`create_user_id`), as a file to its uploader's: given a scope,
 * the administration's page and get see only notices sent by a user inside it, and notices of no sender (the
 * scheduled jobs' alerts) only with scope All. The inbox reads are the receiver's own and take no scope.
 */
import { and, count, desc, eq, type InferInsertModel, inArray, type SQL, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../errors.js';
import { type Page, type PageQuery, paginate } from '../paging.js';
import type { SysNoticeRow } from '../rows.js';
import type { Tables } from '../tables.js';
import type { RepositoryContext } from './context.js';
import { type DataScopeFilter, dataScopeCondition, userScopeCondition } from './data-scope.js';
import { containsIgnoreCase, restrictSort } from './filters.js';
import { chunksOf, insertLinks, readInChunks } from './id-lists.js';

/** Receiver kinds of a notice. */
export const NoticeReceiverType = { All: 0, Role: 1, User: 2 } as const;

/** Values for a new notice. */
export type NewNotice = Omit<InferInsertModel<Tables['sysNotice']>, 'id'>;

/** Filters of the administration page. */
export interface NoticePageQuery extends PageQuery {
  /** Title contains (case-insensitive). */
  title?: string | undefined;
  type?: number | undefined;
}

/** Filters of one user's inbox. */
export interface MyNoticeQuery extends PageQuery {
  onlyUnread?: boolean | undefined;
}

/** A notice as one user sees it. */
export interface MyNotice extends SysNoticeRow {
  isRead: boolean;
}

export interface NoticeRepository {
  /** Inserts the notice and its receivers (user ids, duplicates ignored) in one transaction. */
  create(row: NewNotice, receiverUserIds: readonly number[]): Promise<number>;
  /** Live notices, newest first unless sorted otherwise; with a scope, only those sent by users inside it. */
  page(query: NoticePageQuery, scope?: DataScopeFilter): Promise<Page<SysNoticeRow>>;
  /** A live notice; with a scope, only one sent by a user inside it. */
  get(id: number, scope?: DataScopeFilter): Promise<SysNoticeRow | undefined>;
  /** The receiver user ids of a notice (empty for an All notice). */
  receiverIds(noticeId: number): Promise<number[]>;
  /** Soft-deletes a live notice; false when there is none. */
  softDelete(id: number, audit: { userId: number | null; at: Date }): Promise<boolean>;
  /**
   * Hard-deletes a soft-deleted notice with its receiver and read rows, in one transaction (a failure leaves all of
   * them, still in the recycle bin); false when it was not in the bin.
   */
  purge(id: number): Promise<boolean>;
  /** The given ids that are live roles. */
  liveRoleIds(ids: readonly number[]): Promise<number[]>;
  /** The given ids that are live users. */
  liveUserIds(ids: readonly number[]): Promise<number[]>;
  /**
   * The given ids that are users inside the scope (their organisation is in its set, or they are the caller under
   * Self), deleted users included: whether they are live is {@link liveUserIds}'s question.
   */
  userIdsInScope(ids: readonly number[], scope: DataScopeFilter): Promise<number[]>;
  /** Live users holding any of the roles, now, each once. */
  roleMemberIds(roleIds: readonly number[]): Promise<number[]>;
  /** Whether the notice is live and reaches the user. */
  isVisibleTo(noticeId: number, userId: number): Promise<boolean>;
  /** The user's inbox, newest first, with read state. */
  mine(userId: number, query: MyNoticeQuery): Promise<Page<MyNotice>>;
  /** Live notices reaching the user that the user has not read. */
  unreadCount(userId: number): Promise<number>;
  /** Marks one notice read (idempotent). The caller checks visibility first. */
  markRead(noticeId: number, userId: number, at: Date): Promise<void>;
  /** Marks every unread notice reaching the user read; answers how many were marked. */
  markAllRead(userId: number, at: Date): Promise<number>;
}

export function createNoticeRepository({ db, adapter, tables }: RepositoryContext): NoticeRepository {
  const n = tables.sysNotice;
  const r = tables.sysNoticeReceiver;
  const d = tables.sysNoticeRead;
  const u = tables.sysUser;
  const ro = tables.sysRole;
  const ur = tables.sysUserRole;

  const live = eq(n.isDelete, false);
  /** Live notices reaching the user: All, or a receiver row of theirs. */
  const reaching = (userId: number): SQL =>
    and(
      live,
      sql`(${eq(n.receiverType, NoticeReceiverType.All)} or ${n.id} in (select ${r.noticeId} from ${r} where ${eq(r.receiverId, userId)}))`,
    ) as SQL;
  const readBy = (userId: number): SQL =>
    sql`${n.id} in (select ${d.noticeId} from ${d} where ${eq(d.userId, userId)})`;
  const unique = (ids: readonly number[]) => [...new Set(ids)];
  /** Sent by a user inside the scope (deleted senders included: their organisation still holds). */
  const sentWithin = (scope: DataScopeFilter | undefined): SQL | undefined =>
    scope && userScopeCondition(scope, n.createUserId, u);

  async function insertReads(rows: { noticeId: number; userId: number; readTime: Date }[]): Promise<number> {
    let inserted = 0;
    // Three values a row: a chunk binds 1,500, under SQL Server's 2,100.
    for (const chunk of chunksOf(rows)) {
      try {
        await db.insert(d).values(chunk);
        inserted += chunk.length;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // A concurrent read of the same notice won the race: insert the rest one by one.
        for (const row of chunk) {
          try {
            await db.insert(d).values(row);
            inserted++;
          } catch (inner) {
            if (!isUniqueViolation(inner)) throw inner;
          }
        }
      }
    }
    return inserted;
  }

  return {
    create(row, receiverUserIds) {
      const ids = unique(receiverUserIds);
      return adapter.transaction(db, async (tx) => {
        const id = await adapter.insertReturningId(tx, n, row as InferInsertModel<typeof n>);
        await insertLinks(
          tx,
          r,
          ids.map((receiverId) => ({ noticeId: id, receiverId })),
        );
        return id;
      });
    },

    page(query, scope) {
      const safe = restrictSort(query, [n.id, n.title, n.type, n.publishTime, n.createTime]);
      const where = and(
        live,
        containsIgnoreCase(n.title, query.title),
        query.type !== undefined ? eq(n.type, query.type) : undefined,
        sentWithin(scope),
      );
      return paginate({ db, adapter }, { table: n, query: safe, where, defaultOrder: [desc(n.id)] });
    },

    async get(id, scope) {
      const [row] = await db
        .select()
        .from(n)
        .where(and(eq(n.id, id), live, sentWithin(scope)));
      return row;
    },

    async receiverIds(noticeId) {
      const rows = await db.select({ id: r.receiverId }).from(r).where(eq(r.noticeId, noticeId));
      return rows.map((x) => x.id);
    },

    async softDelete(id, audit) {
      const result = await db
        .update(n)
        .set({ isDelete: true, updateTime: audit.at, updateUserId: audit.userId })
        .where(and(eq(n.id, id), live));
      return adapter.affectedRows(result) > 0;
    },

    purge(id) {
      return adapter.transaction(db, async (tx) => {
        const result = await tx.delete(n).where(and(eq(n.id, id), eq(n.isDelete, true)));
        if (adapter.affectedRows(result) === 0) return false;
        await tx.delete(r).where(eq(r.noticeId, id));
        await tx.delete(d).where(eq(d.noticeId, id));
        return true;
      });
    },

    async liveRoleIds(ids) {
      const rows = await readInChunks(ids, (chunk) =>
        db
          .select({ id: ro.id })
          .from(ro)
          .where(and(inArray(ro.id, chunk), eq(ro.isDelete, false))),
      );
      return rows.map((x) => x.id);
    },

    async liveUserIds(ids) {
      const rows = await readInChunks(ids, (chunk) =>
        db
          .select({ id: u.id })
          .from(u)
          .where(and(inArray(u.id, chunk), eq(u.isDelete, false))),
      );
      return rows.map((x) => x.id);
    },

    async userIdsInScope(ids, scope) {
      const inside = dataScopeCondition(scope, { org: u.orgId, owner: u.id });
      const rows = await readInChunks(ids, (chunk) =>
        db
          .select({ id: u.id })
          .from(u)
          .where(and(inArray(u.id, chunk), inside)),
      );
      return rows.map((x) => x.id);
    },

    async roleMemberIds(roleIds) {
      const rows = await readInChunks(roleIds, (chunk) =>
        db
          .select({ id: ur.userId })
          .from(ur)
          .where(
            and(
              inArray(ur.roleId, chunk),
              sql`${ur.userId} in (select ${u.id} from ${u} where ${eq(u.isDelete, false)})`,
            ),
          ),
      );
      // A user holding roles of several chunks (or several of the roles) is one receiver.
      return unique(rows.map((x) => x.id));
    },

    async isVisibleTo(noticeId, userId) {
      const [row] = await db
        .select({ id: n.id })
        .from(n)
        .where(and(eq(n.id, noticeId), reaching(userId)));
      return row !== undefined;
    },

    async mine(userId, query) {
      const where = and(reaching(userId), query.onlyUnread ? sql`not (${readBy(userId)})` : undefined);
      const page = await paginate(
        { db, adapter },
        {
          table: n,
          query: { ...query, sortField: undefined },
          where,
          defaultOrder: [desc(n.publishTime), desc(n.id)],
        },
      );
      // A page may hold up to `Api:MaxPageSize` (10,000) notices: more than SQL Server binds in one statement.
      const reads = await readInChunks(
        page.items.map((x) => x.id),
        (chunk) =>
          db
            .select({ id: d.noticeId })
            .from(d)
            .where(and(eq(d.userId, userId), inArray(d.noticeId, chunk))),
      );
      const read = new Set(reads.map((x) => x.id));
      return { ...page, items: page.items.map((x) => ({ ...x, isRead: read.has(x.id) })) };
    },

    async unreadCount(userId) {
      const liveNotice = (column: typeof r.noticeId | typeof d.noticeId) =>
        sql`${column} in (select ${n.id} from ${n} where ${live})`;
      const [all, received, read] = await Promise.all([
        db
          .select({ c: count() })
          .from(n)
          .where(and(live, eq(n.receiverType, NoticeReceiverType.All))),
        db
          .select({ c: count() })
          .from(r)
          .where(and(eq(r.receiverId, userId), liveNotice(r.noticeId))),
        db
          .select({ c: count() })
          .from(d)
          .where(and(eq(d.userId, userId), liveNotice(d.noticeId))),
      ]);
      const total = Number(all[0]?.c ?? 0) + Number(received[0]?.c ?? 0) - Number(read[0]?.c ?? 0);
      return Math.max(0, total);
    },

    async markRead(noticeId, userId, at) {
      const [existing] = await db
        .select({ id: d.noticeId })
        .from(d)
        .where(and(eq(d.noticeId, noticeId), eq(d.userId, userId)));
      if (!existing) await insertReads([{ noticeId, userId, readTime: at }]);
    },

    async markAllRead(userId, at) {
      const unread = await db
        .select({ id: n.id })
        .from(n)
        .where(and(reaching(userId), sql`not (${readBy(userId)})`));
      return insertReads(unread.map((x) => ({ noticeId: x.id, userId, readTime: at })));
    },
  };
}
