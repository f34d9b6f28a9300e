/**
 * Module `Shop`, a worked module of a user's, built only with the public API of `@svc/server`: two tables on the
 * four dialects with their drizzle-kit migrations (applied under the module's own journal), CRUD routes under
 * `/api/v1/shop/` guarded by permission codes, products scoped to the caller's organisations, re-authentication
 * on deletes, deleted products in the recycle bin, an Excel export of products, its own error codes (61xxx), seeded menus and buttons (9200–9299), options under `Service:Shop` and
 * a realtime message after product writes (while module Realtime is on), a scheduled-job handler
 * (`shop.disableSoldOut`) and a readiness check of its tables.
 * `Service:Api:DisabledModules` listing `Shop` leaves no route, menu or table of it.
 *
 * @example
 * import { createServer } from '@svc/server';
 * import { shopModule } from '@svc-examples/shop';
 * const server = await createServer({ modules: [shopModule] });
 */
import { adminModule, defineModule, importModule, moduleOptions, realtimeModule } from '@svc/server/http';
import { int, section } from '@svc/server/kernel';
import { createCategoryService } from './categories.js';
import { ShopErrorCode } from './errors.js';
import { shopJobs } from './jobs.js';
import { shopMenus } from './menus.js';
import { createProductService } from './products.js';
import { PRODUCT_CHANGED } from './realtime.js';
import { shopRecycleTypes } from './recycle-types.js';
import categoryCreate from './routes/category-create.js';
import categoryDelete from './routes/category-delete.js';
import categoryGet from './routes/category-get.js';
import categoryPage from './routes/category-page.js';
import categoryUpdate from './routes/category-update.js';
import productCreate from './routes/product-create.js';
import productDelete from './routes/product-delete.js';
import productExport from './routes/product-export.js';
import productGet from './routes/product-get.js';
import productPage from './routes/product-page.js';
import productUpdate from './routes/product-update.js';
import type { ShopServices } from './services.js';
import { shopTables } from './tables/index.js';

export type { CategoryService } from './categories.js';
export { ShopErrorCode } from './errors.js';
export { SOLD_OUT_JOB, shopJobs } from './jobs.js';
export { SHOP_MENU_IDS, shopMenus } from './menus.js';
export { shopMessages } from './messages.js';
export type { ProductService } from './products.js';
export { PRODUCT_CHANGED, type ProductChange } from './realtime.js';
export { PRODUCT_RECYCLE_TYPE, shopRecycleTypes } from './recycle-types.js';
export { PRODUCT_EXPORT_COLUMNS } from './routes/product-export.js';
export type { ShopServices } from './services.js';
export { type CategoryRow, type ProductRow, type ShopTables, shopTables } from './tables/index.js';

/**
 * `Service:Shop`, declared with the configuration's own leaves: the same forms as every key of the service (plain
 * decimal integers; `1e3` or `''` are refused naming the key), unknown keys warned about.
 */
export const shopOptions = section({
  MaxStock: int(1_000_000, 'The most stock one product may hold (61004 above it).', {
    min: 0,
    max: 2_147_483_647,
  }),
  ExportMaxRows: int(10_000, 'The most products one export writes (46012 above it).', {
    min: 1,
    max: 1_000_000,
  }),
});

export const shopModule = defineModule({
  name: 'Shop',
  // Import: the Excel engine the product export streams with (its codes 46012/46013 and the exceljs check).
  dependsOn: [adminModule, importModule],
  optional: [realtimeModule],
  realtimeKinds: [PRODUCT_CHANGED],
  options: moduleOptions('Shop', shopOptions),
  tables: shopTables,
  errorCodes: [ShopErrorCode],
  seedMenus: shopMenus,
  services: ({ core, options, tables, use, useOptional }): ShopServices => {
    const deps = { database: core.database, tables, now: core.now };
    const realtime = useOptional(realtimeModule);
    return {
      categories: createCategoryService(deps),
      products: createProductService({
        ...deps,
        orgs: core.repos.orgs,
        maxStock: options.MaxStock,
        notify: realtime && ((change) => realtime.publish(PRODUCT_CHANGED, { all: true }, change)),
      }),
      actorOf: use(adminModule).admin.actorOf,
      exportMaxRows: options.ExportMaxRows,
      logger: core.logger,
    };
  },
  // Deleted products in the recycle bin of module RecycleBin (while it is on), within the caller's data scope.
  recycleTypes: (shop) => shopRecycleTypes(shop.products),
  // Scheduled-job handlers, registered by module Job while it is on.
  jobs: (shop) => shopJobs(shop),
  // `GET /health/ready` fails while the shop's tables cannot be read.
  health: (shop) => [{ name: 'shop-tables', check: () => shop.categories.probe() }],
  // Fixed paths (`/page`) before the `{id}` routes that would take them.
  routes: [
    categoryPage,
    categoryGet,
    categoryCreate,
    categoryUpdate,
    categoryDelete,
    productPage,
    productExport,
    productGet,
    productCreate,
    productUpdate,
    productDelete,
  ],
});
