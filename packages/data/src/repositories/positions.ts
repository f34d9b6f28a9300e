/**
 * `sys_position`: job positions, paged with filters, soft-deleted.
 */
import { and, asc, eq, type InferInsertModel, type SQL } from 'drizzle-orm';
import { type Page, type PageQuery, paginate } from '../paging.js';
import type { SysPositionRow } from '../rows.js';
import type { Tables } from '../tables.js';
import type { RepositoryContext } from './context.js';
import { containsIgnoreCase, restrictSort } from './filters.js';
import { softDeleteLiveRow, updateLiveRow } from './live-rows.js';
import type { AuditStamp } from './users.js';

/** Values for a new position. */
export type NewPosition = Omit<InferInsertModel<Tables['sysPosition']>, 'id'>;

/** Position fields an administrator may change. */
export type PositionPatch = Partial<Pick<SysPositionRow, 'name' | 'code' | 'sort' | 'enabled' | 'remark'>>;

/** Filters of the position page. */
export interface PositionPageQuery extends PageQuery {
  name?: string | undefined;
  code?: string | undefined;
  enabled?: boolean | undefined;
}

export interface PositionRepository {
  page(query: PositionPageQuery): Promise<Page<SysPositionRow>>;
  findById(id: number): Promise<SysPositionRow | undefined>;
  insert(position: NewPosition): Promise<number>;
  update(id: number, patch: PositionPatch, stamp: AuditStamp): Promise<boolean>;
  softDelete(id: number, stamp: AuditStamp): Promise<boolean>;
}

export function createPositionRepository(ctx: RepositoryContext): PositionRepository {
  const { db, adapter, tables } = ctx;
  const t = tables.sysPosition;
  const sortable = [t.id, t.name, t.code, t.sort, t.enabled, t.createTime, t.updateTime];

  return {
    page(query) {
      const where: (SQL | undefined)[] = [
        eq(t.isDelete, false),
        containsIgnoreCase(t.name, query.name),
        containsIgnoreCase(t.code, query.code),
        query.enabled !== undefined ? eq(t.enabled, query.enabled) : undefined,
      ];
      return paginate(
        { db, adapter },
        {
          table: t,
          where: and(...where),
          query: restrictSort(query, sortable),
          defaultOrder: [asc(t.sort), asc(t.id)],
        },
      );
    },

    async findById(id) {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.id, id), eq(t.isDelete, false)));
      return row;
    },

    insert(position) {
      return adapter.insertReturningId(db, t, position);
    },

    update(id, patch, stamp) {
      return updateLiveRow(ctx, t, id, patch, stamp);
    },

    softDelete(id, stamp) {
      return softDeleteLiveRow(ctx, t, id, stamp);
    },
  };
}
