/** `GET /api/v1/shop/category/{id}`: one live category (61001 when there is none). */
import { createRoute, defineRoute, envelopeResponses, idPath, z } from '@svc/server/http';
import { ok } from '@svc/server/kernel';
import { CategorySchema, categoryItem } from '../schemas.js';
import type { ShopServices } from '../services.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/shop/category/{id}',
  tags: ['Shop'],
  summary: 'Get a shop category',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(CategorySchema),
});

export default defineRoute(
  route,
  { auth: 'permission' },
  (s: Pick<ShopServices, 'categories'>) => async (c) =>
    c.json(ok(categoryItem(await s.categories.get(c.req.valid('param').id))), 200),
);
