/** `GET /api/v1/sys/menu/tree`: every live menu as a catalog/menu/button tree (disabled ones included). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { MenuNodeSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/menu/tree',
  tags: ['Menus'],
  summary: 'Menu tree',
  responses: envelopeResponses(z.array(MenuNodeSchema)),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    return c.json(ok(await deps.admin.menus.tree(actorOf(c, deps))), 200);
  });
}
