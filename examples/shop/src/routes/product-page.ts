/**
 * `GET /api/v1/shop/product/page`: the live products of the caller's data scope, newest first, filtered by name,
 * code, category, organisation and state.
 */
import { createRoute, defineRoute, envelopeResponses, requirePrincipal } from '@svc/server/http';
import { ok } from '@svc/server/kernel';
import { ProductPageQuery, ProductPageSchema, productItem } from '../schemas.js';
import type { ShopServices } from '../services.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/shop/product/page',
  tags: ['Shop'],
  summary: 'Page shop products',
  request: { query: ProductPageQuery },
  responses: envelopeResponses(ProductPageSchema),
});

export default defineRoute(
  route,
  { auth: 'permission' },
  (s: Pick<ShopServices, 'products' | 'actorOf'>) => async (c) => {
    const page = await s.products.page(s.actorOf(requirePrincipal(c)), c.req.valid('query'));
    return c.json(ok({ ...page, items: page.items.map(productItem) }), 200);
  },
);
