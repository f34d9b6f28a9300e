/** `DELETE /api/v1/personal/sessions/{sessionId}`: ends one of the caller's own sessions (42024 otherwise). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import type { AdminRouteDeps } from '../../../admin/route-deps.js';
import { SessionIdParamSchema } from '../../../admin/session-param.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/personal/sessions/{sessionId}',
  tags: ['Personal'],
  summary: 'End one of my sessions',
  request: { params: SessionIdParamSchema },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: AdminRouteDeps): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    await deps.admin.personal.kickSession(requireUser(c), c.req.valid('param').sessionId);
    return c.json(ok(null), 200);
  });
}
