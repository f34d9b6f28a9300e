/** `DELETE /api/v1/sys/role/{id}`: soft delete (to the recycle bin); its grants stop at once. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type AdminRouteDeps, actorOf } from '../../../admin/route-deps.js';
import { IdParamSchema } from '../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/role/{id}',
  tags: ['Roles'],
  summary: 'Delete a role',
  request: { params: IdParamSchema },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: AdminRouteDeps): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    await deps.admin.roles.remove(actorOf(c, deps), c.req.valid('param').id);
    return c.json(ok(null), 200);
  });
}
