/**
 * `PUT /api/v1/sys/role/{id}/datascope`: sets the scope type and the custom organisation list (42003 unknown
 * organisation; 41005 when a caller other than the super admin would widen it beyond their own scope).
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { DataScope } from '@svc/data';
import { ok } from '@svc/kernel';
import { IdParamSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';
import { RoleDataScopeSchema } from './schemas.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/role/{id}/datascope',
  tags: ['Roles'],
  summary: 'Set the data scope of a role',
  request: {
    params: IdParamSchema,
    body: { required: true, content: { 'application/json': { schema: RoleDataScopeSchema } } },
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    const body = c.req.valid('json');
    await deps.admin.roles.setDataScope(actorOf(c, deps), c.req.valid('param').id, {
      scopeType: body.scopeType as DataScope,
      customOrgIds: body.customOrgIds,
    });
    return c.json(ok(null), 200);
  });
}
