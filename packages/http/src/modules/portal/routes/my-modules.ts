/** `GET /api/v1/personal/modules`: the modules the caller can reach through granted menus, and their default. */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { PortalRouteDeps } from './route-deps.js';
import { MyModulesSchema } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/personal/modules',
  tags: ['Personal'],
  summary: 'My portal modules',
  responses: envelopeResponses(MyModulesSchema),
});

export function register(ctx: RegisterContext, d: PortalRouteDeps): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    return c.json(ok(await d.portal.modules(requireUser(c))), 200);
  });
}
