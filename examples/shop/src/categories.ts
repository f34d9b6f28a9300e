/**
 * Product categories: a flat list shared by every organisation (no data scope), soft-deleted. A category that
 * live products still name is not deleted (61003).
 */
import {
  containsIgnoreCase,
  type Database,
  type Page,
  type PageQuery,
  paginate,
  restrictSort,
} from '@svc/server/data';
import { BusinessError } from '@svc/server/kernel';
import type { AdminActor } from '@svc/server/security';
import { and, asc, eq, not, sql } from 'drizzle-orm';
import { ShopErrorCode } from './errors.js';
import type { CategoryRow, ShopTables } from './tables/index.js';

export interface CategoryInput {
  name: string;
  code: string;
  sort?: number | undefined;
  remark?: string | null | undefined;
}

export interface CategoryPageQuery extends PageQuery {
  name?: string | undefined;
  code?: string | undefined;
}

export interface CategoryService {
  page(query: CategoryPageQuery): Promise<Page<CategoryRow>>;
  /** A live category; 61001 when there is none. */
  get(id: number): Promise<CategoryRow>;
  create(actor: AdminActor, input: CategoryInput): Promise<{ id: number }>;
  update(actor: AdminActor, id: number, patch: Partial<CategoryInput>): Promise<void>;
  remove(actor: AdminActor, id: number): Promise<void>;
  /** Reads one row id: rejects while the shop's tables cannot be read (the module's readiness check). */
  probe(): Promise<void>;
}

export interface ShopDeps {
  database: Pick<Database, 'db' | 'adapter'>;
  tables: ShopTables;
  now: () => Date;
}

export function createCategoryService({ database, tables, now }: ShopDeps): CategoryService {
  const { db, adapter } = database;
  const t = tables.shopCategory;
  const live = (id: number) => and(eq(t.id, id), eq(t.isDelete, false));
  const sortable = [t.id, t.name, t.code, t.sort, t.createTime, t.updateTime];

  const get = async (id: number) => {
    const [row] = await db.select().from(t).where(live(id));
    if (!row) throw new BusinessError(ShopErrorCode.CategoryNotFound);
    return row;
  };

  return {
    page: (query) =>
      paginate(
        { db, adapter },
        {
          table: t,
          where: and(
            eq(t.isDelete, false),
            containsIgnoreCase(t.name, query.name),
            containsIgnoreCase(t.code, query.code),
          ),
          query: restrictSort(query, sortable),
          defaultOrder: [asc(t.sort), asc(t.id)],
        },
      ),
    get,
    async probe() {
      await adapter.page(db.select({ id: t.id }).from(t), 0, 1);
    },
    async create(actor, input) {
      const id = await adapter.insertReturningId(db, t, {
        name: input.name,
        code: input.code,
        sort: input.sort ?? 0,
        remark: input.remark ?? null,
        createTime: now(),
        createUserId: actor.userId,
      });
      return { id };
    },
    async update(actor, id, patch) {
      const result = await db
        .update(t)
        .set({ ...patch, updateTime: now(), updateUserId: actor.userId })
        .where(live(id));
      if (adapter.affectedRows(result) === 0) throw new BusinessError(ShopErrorCode.CategoryNotFound);
    },
    async remove(actor, id) {
      await get(id);
      const p = tables.shopProduct;
      // One statement: a product created meanwhile keeps the category live. The refusal names no count, since
      // products of organisations outside the caller's data scope count too.
      const inUse = sql`exists (select 1 from ${p} where ${and(eq(p.categoryId, id), eq(p.isDelete, false))})`;
      const result = await db
        .update(t)
        .set({ isDelete: true, updateTime: now(), updateUserId: actor.userId })
        .where(and(live(id), not(inUse)));
      if (adapter.affectedRows(result) === 0) {
        await get(id);
        throw new BusinessError(ShopErrorCode.CategoryInUse);
      }
    },
  };
}
