/** `PUT /api/v1/shop/category/{id}`: changes a live category (61001 when there is none). */
import { createRoute, defineRoute, envelopeResponses, idPath, requirePrincipal, z } from '@svc/server/http';
import { ok } from '@svc/server/kernel';
import { UpdateCategorySchema } from '../schemas.js';
import type { ShopServices } from '../services.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/shop/category/{id}',
  tags: ['Shop'],
  summary: 'Update a shop category',
  request: {
    params: z.object({ id: idPath }),
    body: { required: true, content: { 'application/json': { schema: UpdateCategorySchema } } },
  },
  responses: envelopeResponses(z.null()),
});

export default defineRoute(
  route,
  { auth: 'permission' },
  (s: Pick<ShopServices, 'categories' | 'actorOf'>) => async (c) => {
    await s.categories.update(s.actorOf(requirePrincipal(c)), c.req.valid('param').id, c.req.valid('json'));
    return c.json(ok(null), 200);
  },
);
