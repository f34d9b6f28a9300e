/** `GET /api/v1/sys/role/page`: roles with filters. */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { jsonify } from '../../../../admin/json.js';
import { pageOf, RoleItemSchema } from '../../../../admin/schemas.js';
import { boolParam, pageQuerySchema, textParam } from '../../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/role/page',
  tags: ['Roles'],
  summary: 'Page of roles',
  request: {
    query: pageQuerySchema({
      name: textParam.optional(),
      code: textParam.optional(),
      enabled: boolParam.optional().openapi({ type: 'boolean' }),
    }),
  },
  responses: envelopeResponses(pageOf(RoleItemSchema)),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    const query = c.req.valid('query');
    return c.json(ok(jsonify(await deps.admin.roles.page(actorOf(c, deps), query))), 200);
  });
}
