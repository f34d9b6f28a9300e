/** `PUT /api/v1/sys/org/{id}`: updates an organisation (42008 when a move would create a cycle). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { IdParamSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';
import { UpdateOrgSchema } from './schemas.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/org/{id}',
  tags: ['Organisations'],
  summary: 'Update an organisation',
  request: {
    params: IdParamSchema,
    body: { required: true, content: { 'application/json': { schema: UpdateOrgSchema } } },
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    await deps.admin.orgs.update(actorOf(c, deps), c.req.valid('param').id, c.req.valid('json'));
    return c.json(ok(null), 200);
  });
}
