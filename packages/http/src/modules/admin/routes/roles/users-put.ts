/**
 * `PUT /api/v1/sys/role/{id}/users`: makes the members inside the caller's data scope exactly `userIds`
 * (members outside it are left alone; an id outside it → 42001 as a missing one, contract §11). Applies to the touched users' next request.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { IdListSchema, IdParamSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/role/{id}/users',
  tags: ['Roles'],
  summary: 'Set the members of a role',
  request: {
    params: IdParamSchema,
    body: {
      required: true,
      content: { 'application/json': { schema: z.object({ userIds: IdListSchema }).strict() } },
    },
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    await deps.admin.roles.setMembers(actorOf(c, deps), c.req.valid('param').id, c.req.valid('json').userIds);
    return c.json(ok(null), 200);
  });
}
