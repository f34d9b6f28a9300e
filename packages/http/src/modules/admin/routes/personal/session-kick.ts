/** `DELETE /api/v1/personal/sessions/{sessionId}`: ends one of the caller's own sessions (42024 otherwise). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import { requireUser } from '../../../../security/principal.js';
import type { AdminRouteDeps } from '../../services.js';
import { SessionIdParamSchema } from '../session-param.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/personal/sessions/{sessionId}',
  tags: ['Personal'],
  summary: 'End one of my sessions',
  request: { params: SessionIdParamSchema },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    await deps.admin.personal.kickSession(requireUser(c), c.req.valid('param').sessionId);
    return c.json(ok(null), 200);
  });
}
