/**
 * `GET /api/v1/personal/menu?moduleId=`: the caller's menu tree (enabled catalogs and menus they are granted),
 * or with `moduleId` the sidebar of that portal module (42014 when the caller cannot reach it). Cached under
 * the portal generation (see the portal service).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { MenuNodeSchema } from '../../../../admin/schemas.js';
import { idParam, querySchema } from '../../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import { requireUser } from '../../../../security/principal.js';
import type { AdminRouteDeps } from '../../services.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/personal/menu',
  tags: ['Personal'],
  summary: 'My menu tree',
  request: {
    query: querySchema({
      moduleId: idParam
        .optional()
        .openapi({ type: 'integer', description: 'Only the menus of this portal module.' }),
    }),
  },
  responses: envelopeResponses(z.array(MenuNodeSchema)),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'portal'>): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    const { moduleId } = c.req.valid('query');
    return c.json(ok(await deps.portal.portal.menu(requireUser(c), moduleId)), 200);
  });
}
