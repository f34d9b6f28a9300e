/**
 * `DELETE /api/v1/shop/category/{id}`: soft-deletes a category no live product names (61003 otherwise); needs a
 * recent re-authentication while second factors are on (40024).
 */
import { createRoute, defineRoute, envelopeResponses, idPath, requirePrincipal, z } from '@svc/server/http';
import { ok } from '@svc/server/kernel';
import type { ShopServices } from '../services.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/shop/category/{id}',
  tags: ['Shop'],
  summary: 'Delete a shop category',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(z.null()),
});

export default defineRoute(
  route,
  { auth: 'permission', reauth: true },
  (s: Pick<ShopServices, 'categories' | 'actorOf'>) => async (c) => {
    await s.categories.remove(s.actorOf(requirePrincipal(c)), c.req.valid('param').id);
    return c.json(ok(null), 200);
  },
);
