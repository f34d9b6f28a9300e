/** `POST /api/v1/auth/logout`: revokes the caller's session; clears the cookies in cookie mode. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { clearSessionCookies } from '../../../security/cookies.js';
import { requireUser } from '../../../security/principal.js';
import type { AuthRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/auth/logout',
  tags: ['Auth'],
  summary: 'Log out (revoke this session)',
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, { security }: Pick<AuthRouteDeps, 'security'>): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    await security.auth.logout(requireUser(c));
    clearSessionCookies(c, security);
    return c.json(ok(null), 200);
  });
}
