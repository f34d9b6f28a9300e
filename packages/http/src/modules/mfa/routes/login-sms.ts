/** `POST /api/v1/auth/login/sms`: completes the SMS step a password login answered with 40009. */
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
  path: '/api/v1/auth/login/sms',
  tags: ['Auth'],
  summary: 'Complete a login with the SMS code',
  description: '40010 wrong code (`args.attemptsLeft`); 40011 missing, expired, used or exhausted code.',
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
    const issued = await d.mfa.steps.completeSms(challengeId, code, client);
    return c.json(ok(loginOutput(c, d.security, issued, d.now())), 200);
  });
}
