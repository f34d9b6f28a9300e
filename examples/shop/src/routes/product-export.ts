/**
 * `GET /api/v1/shop/product/export` (the page filters + `columns`): the live products of the caller's data scope
 * as a streamed workbook, oldest first; 46013 for an unknown column, 46012 above `Service:Shop:ExportMaxRows`.
 * Written to the operation log although it is a read: it takes data out.
 */

import {
  boolParam,
  commonErrorResponses,
  createRoute,
  defineRoute,
  ErrorEnvelopeSchema,
  idParam,
  requirePrincipal,
  textParam,
  z,
} from '@svc/server/http';
import { EXPORT_PAGE_SIZE, type ExportColumn, pickColumns, streamWorkbook } from '@svc/server/modules';
import type { ShopServices } from '../services.js';
import type { ProductRow } from '../tables/index.js';

/** The workbook's columns, in order: what the product page shows, prices in cents as stored. */
export const PRODUCT_EXPORT_COLUMNS: readonly ExportColumn<ProductRow>[] = [
  { key: 'id', header: 'ID', value: (p) => p.id },
  { key: 'code', header: 'Code', value: (p) => p.code },
  { key: 'name', header: 'Name', value: (p) => p.name },
  { key: 'categoryId', header: 'Category ID', value: (p) => p.categoryId },
  { key: 'orgId', header: 'Organisation ID', value: (p) => p.orgId },
  { key: 'priceCents', header: 'Price (cents)', value: (p) => p.priceCents },
  { key: 'stock', header: 'Stock', value: (p) => p.stock },
  { key: 'enabled', header: 'Enabled', value: (p) => (p.enabled ? 'yes' : 'no') },
  { key: 'remark', header: 'Remark', value: (p) => p.remark },
];

export const route = createRoute({
  method: 'get',
  path: '/api/v1/shop/product/export',
  tags: ['Shop'],
  summary: 'Export shop products',
  request: {
    query: z.object({
      name: textParam.optional(),
      code: textParam.optional(),
      categoryId: idParam.optional(),
      orgId: idParam.optional(),
      enabled: boolParam.optional().openapi({ type: 'boolean' }),
      columns: z
        .string()
        .max(1000)
        .optional()
        .openapi({
          description: `Comma-separated column keys: ${PRODUCT_EXPORT_COLUMNS.map((c) => c.key).join(', ')}.`,
        }),
    }),
  },
  responses: {
    200: {
      description: 'The workbook (streamed); failures answer the envelope (46012, 46013).',
      content: {
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
          schema: z.any().openapi({ type: 'string', format: 'binary' }),
        },
        'application/json': { schema: ErrorEnvelopeSchema },
      },
    },
    ...commonErrorResponses,
  },
});

export default defineRoute(
  route,
  { auth: 'permission', opLog: { read: true } },
  (s: Pick<ShopServices, 'products' | 'actorOf' | 'exportMaxRows' | 'logger'>) => async (c) => {
    const { columns, ...filters } = c.req.valid('query');
    const picked = pickColumns(PRODUCT_EXPORT_COLUMNS, columns);
    const actor = s.actorOf(requirePrincipal(c));
    const page = (afterId?: number) =>
      s.products.page(actor, {
        ...filters,
        afterId,
        current: 1,
        size: EXPORT_PAGE_SIZE,
        sortField: 'id',
        sortOrder: 'asc',
      });
    return streamWorkbook({
      sheet: 'Products',
      fileName: 'products.xlsx',
      columns: picked,
      maxRows: s.exportMaxRows,
      // The pages after the first by id (above the last row written), not by offset: a product deleted meanwhile
      // would otherwise move a row of a later page into one already written.
      firstPage: () => page(),
      nextPage: async (last) => (await page(last.id)).items,
      onError: (error) => s.logger.error('shop product export failed midway', { error }),
    });
  },
);
