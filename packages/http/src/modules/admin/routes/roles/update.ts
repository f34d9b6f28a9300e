/** `PUT /api/v1/sys/role/{id}`: name, code, sort, enabled, remark (enabling needs the role's codes held). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { IdParamSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';
import { UpdateRoleSchema } from './schemas.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/role/{id}',
  tags: ['Roles'],
  summary: 'Update a role',
  request: {
    params: IdParamSchema,
    body: { required: true, content: { 'application/json': { schema: UpdateRoleSchema } } },
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    await deps.admin.roles.update(actorOf(c, deps), c.req.valid('param').id, c.req.valid('json'));
    return c.json(ok(null), 200);
  });
}
