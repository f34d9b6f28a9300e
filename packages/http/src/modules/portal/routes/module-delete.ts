/** `DELETE /api/v1/sys/module/{id}`: soft-deletes a module; refuses `system` (42013) and one with menus (42023). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { IdParamSchema } from '../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorOf, type PortalRouteDeps } from './route-deps.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/module/{id}',
  tags: ['Modules'],
  summary: 'Delete a portal module',
  request: { params: IdParamSchema },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: PortalRouteDeps): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    await d.modules.remove(actorOf(c, d), c.req.valid('param').id);
    return c.json(ok(null), 200);
  });
}
