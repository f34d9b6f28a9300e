/**
 * `PUT /api/v1/sys/role/{id}/menus`: replaces the role's grants (42015 unknown menu, 41001 when a caller other
 * than the super admin would grant codes they lack). Applies to every member's next request.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { IdListSchema, IdParamSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/role/{id}/menus',
  tags: ['Roles'],
  summary: 'Grant menus to a role',
  request: {
    params: IdParamSchema,
    body: {
      required: true,
      content: { 'application/json': { schema: z.object({ menuIds: IdListSchema }).strict() } },
    },
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    await deps.admin.roles.setMenus(actorOf(c, deps), c.req.valid('param').id, c.req.valid('json').menuIds);
    return c.json(ok(null), 200);
  });
}
