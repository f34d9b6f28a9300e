/**
 * `GET /api/v1/menu/routes`: every permission-protected route of the running app as `{code, method, path}`,
 * consumer routes included. Read from the route table at request time, so routes registered after this one
 * (other areas, `configure`) are listed too.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';

export const PermissionRouteSchema = z
  .object({
    code: z.string(),
    method: z.string(),
    path: z.string(),
    reauth: z.boolean(),
    module: z.string().nullable(),
  })
  .openapi('PermissionRoute');

export const route = createRoute({
  method: 'get',
  path: '/api/v1/menu/routes',
  tags: ['Menus'],
  summary: 'Permission-protected routes',
  responses: envelopeResponses(z.array(PermissionRouteSchema)),
});

export function register(ctx: RegisterContext): void {
  registerRoute(ctx, route, { auth: 'permission' }, (c) => {
    const routes = ctx.table.permissionRoutes().map((r) => ({
      code: r.permissionCode ?? '',
      method: r.method,
      path: r.path,
      reauth: r.reauth === true,
      module: r.module ?? null,
    }));
    return c.json(ok(routes), 200);
  });
}
