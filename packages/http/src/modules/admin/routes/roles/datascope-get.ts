/** `GET /api/v1/sys/role/{id}/datascope`: `{scopeType, customOrgIds}`. */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { IdParamSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';
import { RoleDataScopeSchema } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/role/{id}/datascope',
  tags: ['Roles'],
  summary: 'Data scope of a role',
  request: { params: IdParamSchema },
  responses: envelopeResponses(RoleDataScopeSchema),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    return c.json(ok(await deps.admin.roles.dataScope(actorOf(c, deps), c.req.valid('param').id)), 200);
  });
}
