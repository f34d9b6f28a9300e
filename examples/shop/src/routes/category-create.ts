/** `POST /api/v1/shop/category`: creates a category. */
import { createRoute, defineRoute, envelopeResponses, requirePrincipal } from '@svc/server/http';
import { ok } from '@svc/server/kernel';
import { CreateCategorySchema, CreatedSchema } from '../schemas.js';
import type { ShopServices } from '../services.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/shop/category',
  tags: ['Shop'],
  summary: 'Create a shop category',
  request: { body: { required: true, content: { 'application/json': { schema: CreateCategorySchema } } } },
  responses: envelopeResponses(CreatedSchema),
});

export default defineRoute(
  route,
  { auth: 'permission' },
  (s: Pick<ShopServices, 'categories' | 'actorOf'>) => async (c) =>
    c.json(ok(await s.categories.create(s.actorOf(requirePrincipal(c)), c.req.valid('json'))), 200),
);
