/** `PUT /api/v1/shop/product/{id}`: changes a product of the caller's data scope (61002 otherwise), checked as on create. */
import { createRoute, defineRoute, envelopeResponses, idPath, requirePrincipal, z } from '@svc/server/http';
import { ok } from '@svc/server/kernel';
import { UpdateProductSchema } from '../schemas.js';
import type { ShopServices } from '../services.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/shop/product/{id}',
  tags: ['Shop'],
  summary: 'Update a shop product',
  request: {
    params: z.object({ id: idPath }),
    body: { required: true, content: { 'application/json': { schema: UpdateProductSchema } } },
  },
  responses: envelopeResponses(z.null()),
});

export default defineRoute(
  route,
  { auth: 'permission' },
  (s: Pick<ShopServices, 'products' | 'actorOf'>) => async (c) => {
    await s.products.update(s.actorOf(requirePrincipal(c)), c.req.valid('param').id, c.req.valid('json'));
    return c.json(ok(null), 200);
  },
);
