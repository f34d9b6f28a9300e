/** `GET /api/v1/personal/menu`: the caller's menu tree (enabled catalogs and menus they are granted). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import type { AdminRouteDeps } from '../../../admin/route-deps.js';
import { MenuNodeSchema } from '../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/personal/menu',
  tags: ['Personal'],
  summary: 'My menu tree',
  responses: envelopeResponses(z.array(MenuNodeSchema)),
});

export function register(ctx: RegisterContext, deps: AdminRouteDeps): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    return c.json(ok(await deps.admin.personal.menu(requireUser(c))), 200);
  });
}
