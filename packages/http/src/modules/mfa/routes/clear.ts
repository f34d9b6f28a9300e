/**
 * `POST /api/v1/sys/mfa/clear`: an administrator removes a user's authenticator binding and recovery codes, and
 * the user's passkeys while module Passkey is on.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requirePrincipal, requireUser } from '../../../security/principal.js';
import type { MfaRouteDeps } from '../services.js';
import { jsonBody } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/mfa/clear',
  tags: ['MFA'],
  summary: "Clear a user's TOTP binding and passkeys",
  description:
    "42001 unknown user or one outside the data scope; 42007 the super admin (for others); 41001 a user holding codes the caller lacks. Revokes the user's sessions (the caller's own one excepted).",
  request: jsonBody(z.object({ userId: z.number().int().positive() }).strict()),
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: Pick<MfaRouteDeps, 'mfa' | 'admin' | 'passkeys'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    const { userId } = c.req.valid('json');
    // The same target checks as every other action on a user (scope, super admin, rank).
    await d.admin.users.checkTarget(d.admin.actorOf(requirePrincipal(c)), userId);
    const caller = requireUser(c);
    // Passkeys first: `binding.clear` revokes the sessions after every factor is gone (the order openSession
    // relies on, issue.ts).
    await d.passkeys?.removeAll(userId);
    await d.mfa.binding.clear(userId, caller.userId, caller.sessionId);
    return c.json(ok(null), 200);
  });
}
