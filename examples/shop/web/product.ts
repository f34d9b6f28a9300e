/**
 * What the product page does, apart from how it looks: its list (paged, filtered by name), its form, its calls and
 * its Excel export, as the options of `useCrudPage`, and the categories its form picks from. Framework-free (it
 * imports `@svc/web/module`, no component), so it is tested against a fake server without a browser. Every call
 * is typed by `schema.d.ts`, openapi-typescript's output of the Shop module's contract (`pnpm gen:api`).
 */
import { ApiError, type CrudPageOptions, unwrap } from '@svc/web/module';
import type { Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';

/** A product as the module answers it. */
export type Product = components['schemas']['ShopProduct'];
/** What the form sends: a create's fields but the organisation (an update takes any subset of them). */
type ProductFields = Omit<components['schemas']['CreateShopProduct'], 'orgId'>;

/** The menu component path of the page (the Shop module's seed menu `shop/product/index`). */
export const PRODUCT_PAGE = 'shop/product/index';

/** The permission codes of the page's buttons and calls (contract §4: `METHOD:/path`). */
export const PRODUCT_CODES = {
  create: 'POST:/api/v1/shop/product',
  update: 'PUT:/api/v1/shop/product/{id}',
  remove: 'DELETE:/api/v1/shop/product/{id}',
  export: 'GET:/api/v1/shop/product/export',
  /** The form's category list. */
  categories: 'GET:/api/v1/shop/category/page',
} as const;

/** The module's `ParamInvalid`: what it would answer for the missing field, checked here before the call. */
const PARAM_INVALID = 48000;

export interface ProductForm {
  id?: number;
  /** null until one is picked: the module refuses a product without a category. */
  categoryId: number | null;
  name: string;
  code: string;
  /** The price in the smallest currency unit. */
  priceCents: number;
  stock: number;
  /** The `common_status` dictionary's value: '1' enabled, '0' disabled. */
  status: string;
  remark: string;
}

export interface ProductFilters {
  name: string;
}

/** What the page needs of the console besides the client. */
export interface ProductPageContext {
  /** The signed-in user's organisation: a new product belongs to it (the module checks it is in the caller's scope). */
  orgId: () => number | null | undefined;
}

/** An option of the form's category select. */
export interface CategoryOption {
  label: string;
  value: number;
}

const nameFilter = (filters: ProductFilters) => {
  const name = filters.name.trim();
  return name ? { name } : {};
};

const fieldsOf = (form: ProductForm): ProductFields => {
  if (form.categoryId === null) throw new ApiError(PARAM_INVALID, 'shop.product.categoryRequired');
  return {
    categoryId: form.categoryId,
    name: form.name.trim(),
    code: form.code.trim(),
    priceCents: form.priceCents,
    stock: form.stock,
    enabled: form.status !== '0',
    remark: form.remark.trim() || null,
  };
};

/** The product page's CRUD options over a client typed with the Shop contract. */
export function productCrud(
  api: Client<paths>,
  context: ProductPageContext,
): CrudPageOptions<Product, ProductFilters, ProductForm> {
  return {
    page: async (query, filters) =>
      unwrap(
        await api.GET('/api/v1/shop/product/page', {
          params: { query: { ...query, ...nameFilter(filters) } },
        }),
      ),
    filters: () => ({ name: '' }),
    pageSizes: [10, 20, 50, 100],
    blank: () => ({ categoryId: null, name: '', code: '', priceCents: 0, stock: 0, status: '1', remark: '' }),
    toForm: (row) => ({
      id: row.id,
      categoryId: row.categoryId,
      name: row.name,
      code: row.code,
      priceCents: row.priceCents,
      stock: row.stock,
      status: row.enabled ? '1' : '0',
      remark: row.remark ?? '',
    }),
    create: async (form) => {
      const body = fieldsOf(form);
      const orgId = context.orgId();
      if (orgId == null) throw new ApiError(PARAM_INVALID, 'shop.product.orgRequired');
      return api.POST('/api/v1/shop/product', { body: { ...body, orgId } });
    },
    // The product stays in its organisation: an edit sends no orgId.
    update: async (form) =>
      api.PUT('/api/v1/shop/product/{id}', { params: { path: { id: form.id } }, body: fieldsOf(form) }),
    // The module asks for re-authentication on a delete: the console's client opens the dialog and replays it.
    remove: (row) => api.DELETE('/api/v1/shop/product/{id}', { params: { path: { id: row.id } } }),
    // The module's workbook of the products the name filter finds, within the caller's data scope.
    exportFile: (filters) =>
      api.GET('/api/v1/shop/product/export', { params: { query: nameFilter(filters) }, parseAs: 'blob' }),
    exportName: 'products.xlsx',
  };
}

/** The categories the form picks from, in the module's order (sort, then id). */
export async function productCategories(api: Client<paths>): Promise<CategoryOption[]> {
  const page = unwrap(await api.GET('/api/v1/shop/category/page', { params: { query: { size: 100 } } }));
  return page.items.map((c) => ({ label: c.name, value: c.id }));
}
