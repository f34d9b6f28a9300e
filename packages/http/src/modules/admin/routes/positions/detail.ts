/** `GET /api/v1/sys/position/{id}`: one position (42005 unknown). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { jsonify } from '../../../../admin/json.js';
import { IdParamSchema, PositionItemSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/position/{id}',
  tags: ['Positions'],
  summary: 'One position',
  request: { params: IdParamSchema },
  responses: envelopeResponses(PositionItemSchema),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    return c.json(
      ok(jsonify(await deps.admin.positions.detail(actorOf(c, deps), c.req.valid('param').id))),
      200,
    );
  });
}
