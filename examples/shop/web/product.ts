/**
 * What the product page does, apart from how it looks: its list (paged, filtered by name), its form and its calls,
 * as the options of `useCrudPage`. Framework-free (it imports `@svc/web/module`, no component), so it is tested
 * against a fake server without a browser.
 */
import { type CrudPageOptions, unwrap } from '@svc/web/module';
import type { Client } from 'openapi-fetch';
import type { Product, ProductFields, paths } from './schema.js';

/** The menu component path of the page (the Shop module's seed menu `shop/product/index`). */
export const PRODUCT_PAGE = 'shop/product/index';

/** The permission codes of the page's buttons (contract §4: `METHOD:/path`). */
export const PRODUCT_CODES = {
  create: 'POST:/api/v1/shop/product',
  update: 'PUT:/api/v1/shop/product/{id}',
  remove: 'DELETE:/api/v1/shop/product/{id}',
} as const;

export interface ProductForm {
  id?: number;
  name: string;
  code: string;
  price: number;
  stock: number;
  /** The `common_status` dictionary's value: '1' enabled, '0' disabled. */
  status: string;
  remark: string;
}

export interface ProductFilters {
  name: string;
}

const fieldsOf = (form: ProductForm): ProductFields => ({
  name: form.name.trim(),
  code: form.code.trim(),
  price: form.price,
  stock: form.stock,
  enabled: form.status !== '0',
  remark: form.remark.trim() || null,
});

/** The product page's CRUD options over a client typed with the Shop contract. */
export function productCrud(api: Client<paths>): CrudPageOptions<Product, ProductFilters, ProductForm> {
  return {
    page: async (query, filters) =>
      unwrap(
        await api.GET('/api/v1/shop/product/page', {
          params: { query: { ...query, ...(filters.name.trim() ? { name: filters.name.trim() } : {}) } },
        }),
      ),
    filters: () => ({ name: '' }),
    pageSizes: [10, 20, 50, 100],
    blank: () => ({ name: '', code: '', price: 0, stock: 0, status: '1', remark: '' }),
    toForm: (row) => ({
      id: row.id,
      name: row.name,
      code: row.code,
      price: row.price,
      stock: row.stock,
      status: row.enabled ? '1' : '0',
      remark: row.remark ?? '',
    }),
    create: (form) => api.POST('/api/v1/shop/product', { body: fieldsOf(form) }),
    update: (form) =>
      api.PUT('/api/v1/shop/product/{id}', { params: { path: { id: form.id } }, body: fieldsOf(form) }),
    // The module asks for re-authentication on a delete: the console's client opens the dialog and replays it.
    remove: (row) => api.DELETE('/api/v1/shop/product/{id}', { params: { path: { id: row.id } } }),
  };
}
