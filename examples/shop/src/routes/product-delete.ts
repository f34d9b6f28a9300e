/**
 * `DELETE /api/v1/shop/product/{id}`: soft-deletes a product of the caller's data scope (61002 otherwise); needs a
 * recent re-authentication while second factors are on (40024).
 */
import { createRoute, defineRoute, envelopeResponses, idPath, requirePrincipal, z } from '@svc/server/http';
import { ok } from '@svc/server/kernel';
import type { ShopServices } from '../services.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/shop/product/{id}',
  tags: ['Shop'],
  summary: 'Delete a shop product',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(z.null()),
});

export default defineRoute(
  route,
  { auth: 'permission', reauth: true },
  (s: Pick<ShopServices, 'products' | 'actorOf'>) => async (c) => {
    await s.products.remove(s.actorOf(requirePrincipal(c)), c.req.valid('param').id);
    return c.json(ok(null), 200);
  },
);
