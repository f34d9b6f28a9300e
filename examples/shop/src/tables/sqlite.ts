/**
 * The shop's tables on SQLite. Its siblings (`pg.ts`, `mysql.ts`, `mssql.ts`) declare the same tables with the
 * same property keys and column names; only the column types differ (held equal by `conformance.ts`). The audit
 * columns and the soft-delete flag are those of the kernel's tables, so the operation log, the recycle bin and
 * the console treat shop rows as they treat a position or a user. drizzle-kit reads this file to generate
 * `migrations/sqlite`; it imports drizzle only, so drizzle-kit needs no build of the service.
 */
import { index, integer, sqliteTable as table, text } from 'drizzle-orm/sqlite-core';

const id = () => integer('id', { mode: 'number' }).primaryKey({ autoIncrement: true });
const int64 = (name: string) => integer(name, { mode: 'number' });
const instant = (name: string) => integer(name, { mode: 'timestamp_ms' });
const str = (name: string, length: number) => text(name, { length });

const audit = () => ({
  createTime: instant('create_time')
    .notNull()
    .$defaultFn(() => new Date()),
  createUserId: int64('create_user_id'),
  updateTime: instant('update_time'),
  updateUserId: int64('update_user_id'),
  isDelete: integer('is_delete', { mode: 'boolean' }).notNull().default(false),
});

export const shopCategory = table(
  'shop_category',
  {
    id: id(),
    name: str('name', 64).notNull(),
    code: str('code', 64).notNull(),
    sort: integer('sort', { mode: 'number' }).notNull().default(0),
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
    stock: integer('stock', { mode: 'number' }).notNull().default(0),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    remark: str('remark', 500),
    ...audit(),
  },
  (t) => [
    index('shop_product_org_live_idx').on(t.orgId, t.isDelete, t.id),
    index('shop_product_category_idx').on(t.categoryId),
  ],
);
