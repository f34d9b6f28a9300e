/**
 * The shop's tables on SQL Server: the same tables as `sqlite.ts` (keys, column names, nullability) in this dialect's
 * types; `conformance.ts` holds them equal. drizzle-kit reads this file to generate `migrations/mssql`.
 */
import { bigint, bit, datetime2, index, int, nvarchar, mssqlTable as table } from 'drizzle-orm/mssql-core';

const id = () => bigint('id', { mode: 'number' }).identity().primaryKey();
const int64 = (name: string) => bigint(name, { mode: 'number' });
const instant = (name: string) => datetime2(name, { mode: 'date', precision: 3 });
const str = (name: string, length: number) => nvarchar(name, { length });
const int32 = (name: string) => int(name);
const flag = (name: string) => bit(name);

const audit = () => ({
  createTime: instant('create_time')
    .notNull()
    .$defaultFn(() => new Date()),
  createUserId: int64('create_user_id'),
  updateTime: instant('update_time'),
  updateUserId: int64('update_user_id'),
  isDelete: flag('is_delete').notNull().default(false),
});

export const shopCategory = table(
  'shop_category',
  {
    id: id(),
    name: str('name', 64).notNull(),
    code: str('code', 64).notNull(),
    sort: int32('sort').notNull().default(0),
    remark: str('remark', 500),
    ...audit(),
  },
  (t) => [index('shop_category_live_idx').on(t.isDelete, t.sort, t.id)],
);

export const shopProduct = table(
  'shop_product',
  {
    id: id(),
    categoryId: int64('category_id').notNull(),
    /** The organisation owning the product: data scope applies to it. */
    orgId: int64('org_id').notNull(),
    name: str('name', 128).notNull(),
    code: str('code', 64).notNull(),
    /** Price in the smallest currency unit: an integer on every dialect, never a float. */
    priceCents: int64('price_cents').notNull().default(0),
    stock: int32('stock').notNull().default(0),
    enabled: flag('enabled').notNull().default(true),
    remark: str('remark', 500),
    ...audit(),
  },
  (t) => [
    index('shop_product_org_live_idx').on(t.orgId, t.isDelete, t.id),
    index('shop_product_category_idx').on(t.categoryId),
  ],
);
