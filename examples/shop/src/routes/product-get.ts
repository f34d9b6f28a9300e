/** `GET /api/v1/shop/product/{id}`: one live product of the caller's data scope (61002 otherwise). */
import { createRoute, defineRoute, envelopeResponses, idPath, requirePrincipal, z } from '@svc/server/http';
import { ok } from '@svc/server/kernel';
import { ProductSchema, productItem } from '../schemas.js';
import type { ShopServices } from '../services.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/shop/product/{id}',
  tags: ['Shop'],
  summary: 'Get a shop product',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(ProductSchema),
});

export default defineRoute(
  route,
  { auth: 'permission' },
  (s: Pick<ShopServices, 'products' | 'actorOf'>) => async (c) =>
    c.json(
      ok(productItem(await s.products.get(s.actorOf(requirePrincipal(c)), c.req.valid('param').id))),
      200,
    ),
);
