/** `GET /api/v1/sys/position/page`: positions with filters. */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { jsonify } from '../../../../admin/json.js';
import { PositionItemSchema, pageOf } from '../../../../admin/schemas.js';
import { boolParam, pageQuerySchema, textParam } from '../../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/position/page',
  tags: ['Positions'],
  summary: 'Page of positions',
  request: {
    query: pageQuerySchema({
      name: textParam.optional(),
      code: textParam.optional(),
      enabled: boolParam.optional().openapi({ type: 'boolean' }),
    }),
  },
  responses: envelopeResponses(pageOf(PositionItemSchema)),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    const query = c.req.valid('query');
    return c.json(ok(jsonify(await deps.admin.positions.page(actorOf(c, deps), query))), 200);
  });
}
