/** `POST /api/v1/auth/mfa/bind/complete`: a valid code stores the seed and answers the recovery codes (once). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { MfaRouteDeps } from '../services.js';
import { ChallengeIdSchema, CodeSchema, jsonBody } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/auth/mfa/bind/complete',
  tags: ['Auth'],
  summary: 'Complete binding an authenticator',
  description: '40019 wrong code (retry); 40021 dead or used bind challenge; 40025 TOTP off.',
  request: jsonBody(z.object({ bindChallengeId: ChallengeIdSchema, totpCode: CodeSchema }).strict()),
  responses: envelopeResponses(z.object({ recoveryCodes: z.array(z.string()) }).openapi('TotpRecoveryCodes')),
});

export function register(ctx: RegisterContext, d: Pick<MfaRouteDeps, 'mfa'>): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const { bindChallengeId, totpCode } = c.req.valid('json');
    return c.json(ok(await d.mfa.binding.complete(bindChallengeId, totpCode)), 200);
  });
}
