/** `PUT /api/v1/personal/default-module`: chooses the caller's default module (42014 when not reachable). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { refId } from '../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { PortalRouteDeps } from './route-deps.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/personal/default-module',
  tags: ['Personal'],
  summary: 'Set my default module',
  request: {
    body: {
      required: true,
      content: { 'application/json': { schema: z.object({ moduleId: refId }).strict() } },
    },
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: PortalRouteDeps): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    await d.portal.setDefaultModule(requireUser(c), c.req.valid('json').moduleId);
    return c.json(ok(null), 200);
  });
}
