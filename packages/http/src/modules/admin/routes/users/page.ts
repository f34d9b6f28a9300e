/** `GET /api/v1/sys/user/page`: users inside the caller's data scope, with filters (contract §5). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { jsonify } from '../../../../admin/json.js';
import { pageOf, UserItemSchema } from '../../../../admin/schemas.js';
import { boolParam, idParam, pageQuerySchema, textParam } from '../../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/user/page',
  tags: ['Users'],
  summary: 'Page of users',
  request: {
    query: pageQuerySchema({
      account: textParam.optional().openapi({ description: 'Account contains (any case).' }),
      name: textParam.optional().openapi({ description: 'Real name contains (any case).' }),
      orgId: idParam.optional().openapi({ type: 'integer' }),
      roleId: idParam.optional().openapi({ type: 'integer' }),
      enabled: boolParam.optional().openapi({ type: 'boolean' }),
    }),
  },
  responses: envelopeResponses(pageOf(UserItemSchema)),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    const query = c.req.valid('query');
    const page = await deps.admin.users.page(actorOf(c, deps), query);
    return c.json(ok(jsonify(page)), 200);
  });
}
