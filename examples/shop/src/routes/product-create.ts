/**
 * `POST /api/v1/shop/product`: creates a product in a live category (61001) and an organisation of the caller's
 * data scope (42003 unknown, 41005 outside); stock above `Service:Shop:MaxStock` answers 61004.
 */
import { createRoute, defineRoute, envelopeResponses, requirePrincipal } from '@svc/server/http';
import { ok } from '@svc/server/kernel';
import { CreatedSchema, CreateProductSchema } from '../schemas.js';
import type { ShopServices } from '../services.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/shop/product',
  tags: ['Shop'],
  summary: 'Create a shop product',
  request: { body: { required: true, content: { 'application/json': { schema: CreateProductSchema } } } },
  responses: envelopeResponses(CreatedSchema),
});

export default defineRoute(
  route,
  { auth: 'permission' },
  (s: Pick<ShopServices, 'products' | 'actorOf'>) => async (c) =>
    c.json(ok(await s.products.create(s.actorOf(requirePrincipal(c)), c.req.valid('json'))), 200),
);
