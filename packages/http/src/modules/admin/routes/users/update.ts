/** `PUT /api/v1/sys/user/{id}`: profile fields and role assignment (account, password and flags are not here). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { IdParamSchema, userFieldsShape } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const UpdateUserSchema = z
  .object({ ...userFieldsShape, realName: userFieldsShape.realName.optional() })
  .strict()
  .openapi('UpdateUser');

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/user/{id}',
  tags: ['Users'],
  summary: 'Update a user (and its roles)',
  request: {
    params: IdParamSchema,
    body: { required: true, content: { 'application/json': { schema: UpdateUserSchema } } },
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    const { id } = c.req.valid('param');
    await deps.admin.users.update(actorOf(c, deps), id, c.req.valid('json'));
    return c.json(ok(null), 200);
  });
}
