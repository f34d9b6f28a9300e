/**
 * `sys_file`: uploaded files' metadata. The bytes live under the upload root by `storageKey` (a generated name,
 * never the client's); rows are soft-deleted. A file belongs to the data scope of its uploader (contract §10):
 * reads given a scope see only files whose `create_user_id` is a user inside it (their organisation, or the
 * caller themselves under Self); files of an unbound API key are seen by an All scope only.
 */
import { and, asc, desc, eq, type InferInsertModel, inArray, lt, type SQL } from 'drizzle-orm';
import { type Page, type PageQuery, paginate } from '../paging.js';
import type { SysFileRow } from '../rows.js';
import type { Tables } from '../tables.js';
import type { RepositoryContext } from './context.js';
import { type DataScopeFilter, userScopeCondition } from './data-scope.js';
import { containsIgnoreCase } from './filters.js';
import { readInChunks, writeAllInChunks } from './id-lists.js';

export type NewFile = Omit<InferInsertModel<Tables['sysFile']>, 'id'>;

export interface FilePageQuery extends PageQuery {
  /** Original name contains (case-insensitive). */
  name?: string | undefined;
}

export interface FileRepository {
  insert(row: NewFile): Promise<number>;
  /** A live (not deleted) file; with a scope, only one uploaded by a user inside it. */
  getById(id: number, scope?: DataScopeFilter): Promise<SysFileRow | undefined>;
  /** Newest first unless sorted otherwise; with a scope, only files uploaded by users inside it. */
  page(query: FilePageQuery, scope?: DataScopeFilter): Promise<Page<SysFileRow>>;
  /** Live files among `ids`; with a scope, only those uploaded by users inside it. */
  findLive(ids: readonly number[], scope?: DataScopeFilter): Promise<SysFileRow[]>;
  /** Soft-deletes the live files among `ids` in one statement; answers how many. */
  softDeleteMany(ids: readonly number[], audit?: { userId?: number | null; now?: Date }): Promise<number>;
  /** Soft-deletes a live file; false when there is none. */
  softDelete(id: number, audit?: { userId?: number | null; now?: Date }): Promise<boolean>;
  /** The newest live file with this SHA-256 (hex) uploaded by a user inside `scope` (instant upload). */
  findByHash(sha256: string, scope?: DataScopeFilter): Promise<SysFileRow | undefined>;
  /** Up to `limit` files soft-deleted before `cutoff` (their delete time), oldest first. */
  deletedBefore(cutoff: Date, limit: number): Promise<SysFileRow[]>;
  /** Hard-deletes soft-deleted rows; returns how many went. */
  purgeDeleted(ids: readonly number[]): Promise<number>;
  /**
   * Whether any row, live or deleted, still names these stored bytes: files uploaded at once from a known hash
   * share the bytes of the file they matched, which go only with the last row naming them.
   */
  storageKeyInUse(storageKey: string): Promise<boolean>;
}

export function createFileRepository({ db, adapter, tables }: RepositoryContext): FileRepository {
  const t = tables.sysFile;
  const u = tables.sysUser;

  /** Uploaded by a user inside the scope (deleted uploaders included: their organisation still holds). */
  const uploadedWithin = (scope: DataScopeFilter | undefined): SQL | undefined =>
    scope && userScopeCondition(scope, t.createUserId, u);

  return {
    async findByHash(sha256, scope) {
      const query = db
        .select()
        .from(t)
        .where(and(eq(t.sha256, sha256), eq(t.isDelete, false), uploadedWithin(scope)))
        .orderBy(desc(t.id));
      const [row] = await adapter.page(query, 0, 1);
      return row;
    },

    deletedBefore(cutoff, limit) {
      const query = db
        .select()
        .from(t)
        .where(and(eq(t.isDelete, true), lt(t.updateTime, cutoff)))
        .orderBy(asc(t.updateTime), asc(t.id));
      return adapter.page(query, 0, limit);
    },

    purgeDeleted(ids) {
      return writeAllInChunks({ db, adapter }, ids, (q, chunk) =>
        q.delete(t).where(and(inArray(t.id, chunk), eq(t.isDelete, true))),
      );
    },

    insert(row) {
      return adapter.insertReturningId(db, t, row);
    },

    async storageKeyInUse(storageKey) {
      const [row] = await adapter.page(
        db.select({ id: t.id }).from(t).where(eq(t.storageKey, storageKey)),
        0,
        1,
      );
      return row !== undefined;
    },

    async getById(id, scope) {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.id, id), eq(t.isDelete, false), uploadedWithin(scope)));
      return row;
    },

    page(query, scope) {
      const where = and(
        eq(t.isDelete, false),
        containsIgnoreCase(t.originalName, query.name),
        uploadedWithin(scope),
      );
      return paginate(
        { db, adapter },
        { table: t, query, where, defaultOrder: [desc(t.createTime), desc(t.id)] },
      );
    },

    findLive(ids, scope) {
      return readInChunks(ids, (chunk) =>
        db
          .select()
          .from(t)
          .where(and(inArray(t.id, chunk), eq(t.isDelete, false), uploadedWithin(scope))),
      );
    },

    softDeleteMany(ids, audit) {
      const at = audit?.now ?? new Date();
      return writeAllInChunks({ db, adapter }, ids, (q, chunk) =>
        q
          .update(t)
          .set({ isDelete: true, updateTime: at, updateUserId: audit?.userId ?? null })
          .where(and(inArray(t.id, chunk), eq(t.isDelete, false))),
      );
    },

    async softDelete(id, audit) {
      const result = await db
        .update(t)
        .set({ isDelete: true, updateTime: audit?.now ?? new Date(), updateUserId: audit?.userId ?? null })
        .where(and(eq(t.id, id), eq(t.isDelete, false)));
      return adapter.affectedRows(result) > 0;
    },
  };
}
