/** `POST /api/v1/sys/mfa/clear`: an administrator removes a user's authenticator binding and recovery codes. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import type { HttpDeps } from '../../deps.js';
import { type RegisterContext, registerRoute } from '../../openapi/register.js';
import { envelopeResponses } from '../../openapi/schemas.js';
import { requireUser } from '../../security/principal.js';
import { jsonBody } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/mfa/clear',
  tags: ['MFA'],
  summary: "Clear a user's TOTP binding",
  description: "42001 unknown user. Revokes the user's sessions (the caller's own one excepted).",
  request: jsonBody(z.object({ userId: z.number().int().positive() }).strict()),
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: HttpDeps): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    const { userId } = c.req.valid('json');
    const caller = requireUser(c);
    await deps.core.mfa.binding.clear(userId, caller.userId, caller.sessionId);
    return c.json(ok(null), 200);
  });
}
