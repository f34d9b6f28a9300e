/** `GET /api/v1/sys/user/{id}`: one user (42001 unknown or outside the caller's data scope, contract §11). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { jsonify } from '../../../../admin/json.js';
import { IdParamSchema, UserItemSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/user/{id}',
  tags: ['Users'],
  summary: 'One user',
  request: { params: IdParamSchema },
  responses: envelopeResponses(UserItemSchema),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(ok(jsonify(await deps.admin.users.detail(actorOf(c, deps), id))), 200);
  });
}
