/** `GET /api/v1/sys/role/{id}/users`: member ids inside the caller's data scope. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { IdParamSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/role/{id}/users',
  tags: ['Roles'],
  summary: 'Members of a role',
  request: { params: IdParamSchema },
  responses: envelopeResponses(z.object({ userIds: z.array(z.number().int()) })),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    const userIds = await deps.admin.roles.members(actorOf(c, deps), c.req.valid('param').id);
    return c.json(ok({ userIds }), 200);
  });
}
