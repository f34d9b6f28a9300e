/** `PUT /api/v1/sys/position/{id}`: updates a position (42005 unknown). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { IdParamSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';
import { UpdatePositionSchema } from './schemas.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/position/{id}',
  tags: ['Positions'],
  summary: 'Update a position',
  request: {
    params: IdParamSchema,
    body: { required: true, content: { 'application/json': { schema: UpdatePositionSchema } } },
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    await deps.admin.positions.update(actorOf(c, deps), c.req.valid('param').id, c.req.valid('json'));
    return c.json(ok(null), 200);
  });
}
