/**
 * `DELETE /api/v1/sys/session/{sessionId}`: forced logout. The refresh token becomes `Revoked`, the cache copy
 * is replaced and the next request with the session's access token answers 401 (42024 unknown or ended).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';
import { SessionIdParamSchema } from '../session-param.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/session/{sessionId}',
  tags: ['Sessions'],
  summary: 'Force a session to log out',
  request: { params: SessionIdParamSchema },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    await deps.admin.onlineSessions.forceLogout(actorOf(c, deps), c.req.valid('param').sessionId);
    return c.json(ok(null), 200);
  });
}
