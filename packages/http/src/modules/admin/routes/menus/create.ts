/** `POST /api/v1/sys/menu`: creates a catalog, menu or button (42030 when the parent is missing or a button). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { CreatedSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';
import { CreateMenuSchema } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/menu',
  tags: ['Menus'],
  summary: 'Create a menu',
  request: { body: { required: true, content: { 'application/json': { schema: CreateMenuSchema } } } },
  responses: envelopeResponses(CreatedSchema),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    return c.json(ok(await deps.admin.menus.create(actorOf(c, deps), c.req.valid('json'))), 200);
  });
}
