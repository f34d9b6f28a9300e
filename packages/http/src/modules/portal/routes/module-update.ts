/** `PUT /api/v1/sys/module/{id}`: updates a portal module (42011, 42012; `system` keeps its code, 42013). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { IdParamSchema } from '../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorOf, type PortalRouteDeps } from './route-deps.js';
import { UpdateModuleSchema } from './schemas.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/module/{id}',
  tags: ['Modules'],
  summary: 'Update a portal module',
  request: {
    params: IdParamSchema,
    body: { required: true, content: { 'application/json': { schema: UpdateModuleSchema } } },
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: PortalRouteDeps): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    await d.modules.update(actorOf(c, d), c.req.valid('param').id, c.req.valid('json'));
    return c.json(ok(null), 200);
  });
}
