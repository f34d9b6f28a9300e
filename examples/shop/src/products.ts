/**
 * Products: each belongs to a category and to an organisation, and a caller sees and changes only the products
 * of the organisations in their data scope (the roles' scope the administration applies to users, resolved by
 * the Admin module's actor and applied with `dataScopeCondition`). A product outside the scope answers as
 * missing (61002), so its existence is not disclosed; placing one in an organisation outside the scope is
 * refused (41005). Soft-deleted, audited.
 */
import {
  containsIgnoreCase,
  dataScopeCondition,
  isInDataScope,
  type Page,
  type PageQuery,
  paginate,
  type Repositories,
  restrictSort,
} from '@svc/server/data';
import { BusinessError, ErrorCode } from '@svc/server/kernel';
import { type AdminActor, AdminErrorCode } from '@svc/server/security';
import { and, desc, eq, gt, type SQL } from 'drizzle-orm';
import type { ShopDeps } from './categories.js';
import { ShopErrorCode } from './errors.js';
import type { ProductChange } from './realtime.js';
import type { ProductRow } from './tables/index.js';

export interface ProductInput {
  categoryId: number;
  orgId: number;
  name: string;
  code: string;
  priceCents?: number | undefined;
  stock?: number | undefined;
  enabled?: boolean | undefined;
  remark?: string | null | undefined;
}

export interface ProductPageQuery extends PageQuery {
  name?: string | undefined;
  code?: string | undefined;
  categoryId?: number | undefined;
  orgId?: number | undefined;
  enabled?: boolean | undefined;
  /** Only the products above this id (the export's pages after the first, by id rather than by offset). */
  afterId?: number | undefined;
}

export interface ProductService {
  page(actor: AdminActor, query: ProductPageQuery): Promise<Page<ProductRow>>;
  /** A live product in the caller's scope; 61002 otherwise. */
  get(actor: AdminActor, id: number): Promise<ProductRow>;
  create(actor: AdminActor, input: ProductInput): Promise<{ id: number }>;
  update(actor: AdminActor, id: number, patch: Partial<ProductInput>): Promise<void>;
  remove(actor: AdminActor, id: number): Promise<void>;
  /** The soft-deleted products of the caller's scope, last deleted first (the recycle bin's page). */
  deletedPage(actor: AdminActor, query: PageQuery): Promise<Page<ProductRow>>;
  /** Brings a soft-deleted product of the caller's scope back (42020 otherwise; 61001 while its category is not live). */
  restore(actor: AdminActor, id: number): Promise<void>;
  /** Deletes a soft-deleted product of the caller's scope for good (42020 otherwise). */
  purge(actor: AdminActor, id: number): Promise<void>;
  /** Disables every live, enabled product without stock (the scheduled job `shop.disableSoldOut`); answers how many. */
  disableSoldOut(): Promise<number>;
}

export interface ProductDeps extends ShopDeps {
  /** The organisations a product may be placed in. */
  orgs: Pick<Repositories['orgs'], 'findById'>;
  /** `Service:Shop:MaxStock`. */
  maxStock: number;
  /** Tells connected consoles after a write (`shop-product-changed`); absent while module Realtime is off. */
  notify?: ((change: ProductChange) => Promise<void>) | undefined;
}

export function createProductService(deps: ProductDeps): ProductService {
  const { database, tables, now, orgs, maxStock, notify } = deps;
  const { db, adapter } = database;
  const t = tables.shopProduct;
  const c = tables.shopCategory;
  const sortable = [t.id, t.name, t.code, t.priceCents, t.stock, t.enabled, t.createTime, t.updateTime];

  /** Rows of the caller's scope: their organisation is in it, or (scope Self) the caller created them. */
  const inScope = async (actor: AdminActor, deleted: boolean, ...more: (SQL | undefined)[]) =>
    and(
      eq(t.isDelete, deleted),
      dataScopeCondition(await actor.scope(), { org: t.orgId, owner: t.createUserId }),
      ...more,
    );
  /** Live rows of the caller's scope. */
  const visible = (actor: AdminActor, ...more: (SQL | undefined)[]) => inScope(actor, false, ...more);
  /** A soft-deleted product of the caller's scope; one outside it is not in their bin either (42020). */
  const deleted = async (actor: AdminActor, id: number) => {
    const [row] = await db
      .select()
      .from(t)
      .where(await inScope(actor, true, eq(t.id, id)));
    if (!row) throw new BusinessError(AdminErrorCode.RecycleNotFound);
    return row;
  };

  const get = async (actor: AdminActor, id: number) => {
    const [row] = await db
      .select()
      .from(t)
      .where(await visible(actor, eq(t.id, id)));
    if (!row) throw new BusinessError(ShopErrorCode.ProductNotFound);
    return row;
  };

  /** Refuses a category that is not live (61001), an unknown organisation (42003), one outside the scope (41005), too much stock (61004). */
  const check = async (actor: AdminActor, input: Partial<ProductInput>) => {
    if (input.stock !== undefined && input.stock > maxStock)
      throw new BusinessError(ShopErrorCode.StockAboveMaximum, { max: maxStock });
    if (input.categoryId !== undefined) {
      const [category] = await db
        .select({ id: c.id })
        .from(c)
        .where(and(eq(c.id, input.categoryId), eq(c.isDelete, false)));
      if (!category) throw new BusinessError(ShopErrorCode.CategoryNotFound);
    }
    if (input.orgId !== undefined) {
      const org = await orgs.findById(input.orgId);
      if (!org) throw new BusinessError(AdminErrorCode.OrgNotFound);
      if (!isInDataScope(await actor.scope(), { orgId: input.orgId }))
        throw new BusinessError(ErrorCode.OutOfDataScope);
    }
  };

  return {
    async page(actor, query) {
      return paginate(
        { db, adapter },
        {
          table: t,
          where: await visible(
            actor,
            containsIgnoreCase(t.name, query.name),
            containsIgnoreCase(t.code, query.code),
            query.categoryId !== undefined ? eq(t.categoryId, query.categoryId) : undefined,
            query.orgId !== undefined ? eq(t.orgId, query.orgId) : undefined,
            query.enabled !== undefined ? eq(t.enabled, query.enabled) : undefined,
            query.afterId !== undefined ? gt(t.id, query.afterId) : undefined,
          ),
          query: restrictSort(query, sortable),
          defaultOrder: [desc(t.createTime), desc(t.id)],
        },
      );
    },
    get,
    async create(actor, input) {
      await check(actor, input);
      const id = await adapter.insertReturningId(db, t, {
        categoryId: input.categoryId,
        orgId: input.orgId,
        name: input.name,
        code: input.code,
        priceCents: input.priceCents ?? 0,
        stock: input.stock ?? 0,
        enabled: input.enabled ?? true,
        remark: input.remark ?? null,
        createTime: now(),
        createUserId: actor.userId,
      });
      await notify?.({ action: 'created' });
      return { id };
    },
    async update(actor, id, patch) {
      await get(actor, id);
      await check(actor, patch);
      const result = await db
        .update(t)
        .set({ ...patch, updateTime: now(), updateUserId: actor.userId })
        .where(await visible(actor, eq(t.id, id)));
      if (adapter.affectedRows(result) === 0) throw new BusinessError(ShopErrorCode.ProductNotFound);
      await notify?.({ action: 'updated' });
    },
    async remove(actor, id) {
      const result = await db
        .update(t)
        .set({ isDelete: true, updateTime: now(), updateUserId: actor.userId })
        .where(await visible(actor, eq(t.id, id)));
      if (adapter.affectedRows(result) === 0) throw new BusinessError(ShopErrorCode.ProductNotFound);
      await notify?.({ action: 'deleted' });
    },
    async deletedPage(actor, query) {
      return paginate(
        { db, adapter },
        {
          table: t,
          where: await inScope(actor, true),
          query: restrictSort(query, sortable),
          defaultOrder: [desc(t.updateTime), desc(t.id)],
        },
      );
    },
    async restore(actor, id) {
      const row = await deleted(actor, id);
      // It comes back into a live category only (61001: restore the category first), as creating it would ask.
      await check(actor, { categoryId: row.categoryId });
      const result = await db
        .update(t)
        .set({ isDelete: false, updateTime: now(), updateUserId: actor.userId })
        .where(await inScope(actor, true, eq(t.id, id)));
      if (adapter.affectedRows(result) === 0) throw new BusinessError(AdminErrorCode.RecycleNotFound);
      await notify?.({ action: 'created' });
    },
    async purge(actor, id) {
      await deleted(actor, id);
      const result = await db.delete(t).where(await inScope(actor, true, eq(t.id, id)));
      if (adapter.affectedRows(result) === 0) throw new BusinessError(AdminErrorCode.RecycleNotFound);
    },
    async disableSoldOut() {
      const result = await db
        .update(t)
        .set({ enabled: false, updateTime: now() })
        .where(and(eq(t.isDelete, false), eq(t.enabled, true), eq(t.stock, 0)));
      const disabled = adapter.affectedRows(result);
      if (disabled > 0) await notify?.({ action: 'updated' });
      return disabled;
    },
  };
}
