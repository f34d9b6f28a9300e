/** `GET /api/v1/sys/org/list`: every live organisation (flat, `parentId` links the tree), with filters. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { jsonify } from '../../../../admin/json.js';
import { OrgItemSchema } from '../../../../admin/schemas.js';
import { boolParam, querySchema, textParam } from '../../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/org/list',
  tags: ['Organisations'],
  summary: 'Organisations',
  request: {
    query: querySchema({
      name: textParam.optional(),
      enabled: boolParam.optional().openapi({ type: 'boolean' }),
    }),
  },
  responses: envelopeResponses(z.array(OrgItemSchema)),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    return c.json(ok(jsonify(await deps.admin.orgs.list(actorOf(c, deps), c.req.valid('query')))), 200);
  });
}
