/** `GET /api/v1/sys/org/{id}`: one organisation (42003 unknown or outside the caller's data scope, contract §11). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { jsonify } from '../../../../admin/json.js';
import { IdParamSchema, OrgItemSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/org/{id}',
  tags: ['Organisations'],
  summary: 'One organisation',
  request: { params: IdParamSchema },
  responses: envelopeResponses(OrgItemSchema),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    return c.json(ok(jsonify(await deps.admin.orgs.detail(actorOf(c, deps), c.req.valid('param').id))), 200);
  });
}
