/** `POST /api/v1/auth/login/totp`: completes the TOTP step a password login answered with 40018. */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { clientInfoOf } from '../../../security/client.js';
import { loginOutput } from '../../../security/cookies.js';
import { LoginOutputSchema } from '../../auth/routes/schemas.js';
import type { MfaRouteDeps } from '../services.js';
import { ChallengeCodeBody, jsonBody } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/auth/login/totp',
  tags: ['Auth'],
  summary: 'Complete a login with the authenticator code',
  description:
    '40019 wrong or already used code (retry; `args.attemptsLeft`); 40028 dead challenge; 40025 TOTP off.',
  request: jsonBody(ChallengeCodeBody),
  responses: envelopeResponses(LoginOutputSchema),
});

export function register(
  ctx: RegisterContext,
  d: Pick<MfaRouteDeps, 'mfa' | 'security' | 'resolveClientIp' | 'now'>,
): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const { challengeId, code } = c.req.valid('json');
    const client = clientInfoOf(c, d.resolveClientIp);
    const issued = await d.mfa.steps.completeTotp(challengeId, code, client);
    return c.json(ok(loginOutput(c, d.security, issued, d.now())), 200);
  });
}
