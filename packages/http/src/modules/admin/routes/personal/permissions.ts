/**
 * `GET /api/v1/personal/permissions`: the caller's permission codes (the super admin: every permission route
 * of the running app, read from the route table at request time).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import { requireUser } from '../../../../security/principal.js';
import type { AdminRouteDeps } from '../../services.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/personal/permissions',
  tags: ['Personal'],
  summary: 'My permission codes',
  responses: envelopeResponses(z.array(z.string())),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  const allCodes = () =>
    ctx.table.permissionRoutes().flatMap((r) => (r.permissionCode ? [r.permissionCode] : []));
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    return c.json(ok(await deps.admin.personal.permissionCodes(requireUser(c), allCodes)), 200);
  });
}
