/**
 * `useCrudPage`: one way for a console page to list, search, create, edit, delete and export the rows of one
 * resource, typed by the page's calls of the generated contract. Call it in `<script setup>`; the list loads when
 * the page is mounted.
 */
import { onMounted } from 'vue';
import { usePageFeedback } from './feedback.js';
import { type CallResult, type CrudPage, type CrudPageOptions, createCrudPage } from './page.js';

/**
 * The list, form, delete and export state of a CRUD page, with the page's translator, client and message helpers.
 *
 * @example
 * const { t, table, filters, editing, openCreate, openEdit, save, remove, reload } = useCrudPage({
 *   page: async (query, f) =>
 *     unwrap(await api.GET('/api/v1/shop/product/page', { params: { query: { ...query, ...f } } })),
 *   filters: () => ({ name: '' }),
 *   blank: () => ({ name: '', priceCents: 0 }),
 *   toForm: (row) => ({ id: row.id, name: row.name, priceCents: row.priceCents }),
 *   create: (form) => api.POST('/api/v1/shop/product', { body: form }),
 *   update: ({ id, ...body }) => api.PUT('/api/v1/shop/product/{id}', { params: { path: { id } }, body }),
 *   remove: (row) => api.DELETE('/api/v1/shop/product/{id}', { params: { path: { id: row.id } } }),
 * });
 */
export function useCrudPage<
  Row,
  Filters extends object = Record<string, never>,
  Form extends { id?: number } = { id?: number },
  Created extends CallResult = CallResult,
>(options: CrudPageOptions<Row, Filters, Form, Created>): CrudPage<Row, Filters, Form> {
  const page = createCrudPage(options, usePageFeedback());
  onMounted(() => void page.reload());
  return page;
}
