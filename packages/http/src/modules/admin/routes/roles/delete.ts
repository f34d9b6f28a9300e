/** `DELETE /api/v1/sys/role/{id}`: soft delete (to the recycle bin); its grants stop at once. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { IdParamSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/role/{id}',
  tags: ['Roles'],
  summary: 'Delete a role',
  request: { params: IdParamSchema },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    await deps.admin.roles.remove(actorOf(c, deps), c.req.valid('param').id);
    return c.json(ok(null), 200);
  });
}
