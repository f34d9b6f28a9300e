/** `GET /api/v1/sys/session/online`: online sessions of users inside the caller's data scope (paged). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { jsonify } from '../../../../admin/json.js';
import { OnlineSessionSchema, pageOf } from '../../../../admin/schemas.js';
import { idParam, pageQuerySchema } from '../../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/session/online',
  tags: ['Sessions'],
  summary: 'Online sessions',
  request: { query: pageQuerySchema({ userId: idParam.optional().openapi({ type: 'integer' }) }) },
  responses: envelopeResponses(pageOf(OnlineSessionSchema)),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    const query = c.req.valid('query');
    return c.json(ok(jsonify(await deps.admin.onlineSessions.page(actorOf(c, deps), query))), 200);
  });
}
