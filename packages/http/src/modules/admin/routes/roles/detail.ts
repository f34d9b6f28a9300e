/** `GET /api/v1/sys/role/{id}`: one role (42002 unknown). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { jsonify } from '../../../../admin/json.js';
import { IdParamSchema, RoleItemSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/role/{id}',
  tags: ['Roles'],
  summary: 'One role',
  request: { params: IdParamSchema },
  responses: envelopeResponses(RoleItemSchema),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    const role = await deps.admin.roles.detail(actorOf(c, deps), c.req.valid('param').id);
    return c.json(ok(jsonify(role)), 200);
  });
}
