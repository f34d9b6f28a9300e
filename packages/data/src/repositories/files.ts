/**
 * `sys_file`: uploaded files' metadata. The bytes live under the upload root by `storageKey` (a generated name,
 * never the client's); rows are soft-deleted.
 */
import { and, desc, eq, type InferInsertModel } from 'drizzle-orm';
import { type Page, type PageQuery, paginate } from '../paging.js';
import type { SysFileRow } from '../rows.js';
import type { Tables } from '../tables.js';
import type { RepositoryContext } from './context.js';
import { containsIgnoreCase } from './filters.js';

export type NewFile = Omit<InferInsertModel<Tables['sysFile']>, 'id'>;

export interface FilePageQuery extends PageQuery {
  /** Original name contains (case-insensitive). */
  name?: string | undefined;
}

export interface FileRepository {
  insert(row: NewFile): Promise<number>;
  /** A live (not deleted) file. */
  getById(id: number): Promise<SysFileRow | undefined>;
  /** Newest first unless sorted otherwise. */
  page(query: FilePageQuery): Promise<Page<SysFileRow>>;
  /** Soft-deletes a live file; false when there is none. */
  softDelete(id: number, audit?: { userId?: number | null; now?: Date }): Promise<boolean>;
}

export function createFileRepository({ db, adapter, tables }: RepositoryContext): FileRepository {
  const t = tables.sysFile;
  return {
    insert(row) {
      return adapter.insertReturningId(db, t, row);
    },

    async getById(id) {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.id, id), eq(t.isDelete, false)));
      return row;
    },

    page(query) {
      const where = and(eq(t.isDelete, false), containsIgnoreCase(t.originalName, query.name));
      return paginate(
        { db, adapter },
        { table: t, query, where, defaultOrder: [desc(t.createTime), desc(t.id)] },
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
