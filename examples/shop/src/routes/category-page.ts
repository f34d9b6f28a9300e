/** `GET /api/v1/shop/category/page`: live categories by sort then id, filtered by name and code. */

import { createRoute, defineRoute, envelopeResponses } from '@svc/server/http';
import { ok } from '@svc/server/kernel';
import { CategoryPageQuery, CategoryPageSchema, categoryItem } from '../schemas.js';
import type { ShopServices } from '../services.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/shop/category/page',
  tags: ['Shop'],
  summary: 'Page shop categories',
  request: { query: CategoryPageQuery },
  responses: envelopeResponses(CategoryPageSchema),
});

export default defineRoute(
  route,
  { auth: 'permission' },
  (s: Pick<ShopServices, 'categories'>) => async (c) => {
    const page = await s.categories.page(c.req.valid('query'));
    return c.json(ok({ ...page, items: page.items.map(categoryItem) }), 200);
  },
);
