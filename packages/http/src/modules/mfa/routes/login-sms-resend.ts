/** `POST /api/v1/auth/login/sms/resend`: a new code for a live SMS login step (cooldown and daily limit apply). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { MfaRouteDeps } from '../services.js';
import { ChallengeIdSchema, jsonBody, SmsSendResultSchema } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/auth/login/sms/resend',
  tags: ['Auth'],
  summary: 'Resend the SMS code of a login step',
  description:
    '40008 within the cooldown (`args.retryAfterSeconds`) or past the daily limit; 40011 dead step.',
  request: jsonBody(z.object({ challengeId: ChallengeIdSchema }).strict()),
  responses: envelopeResponses(SmsSendResultSchema),
});

export function register(ctx: RegisterContext, d: Pick<MfaRouteDeps, 'mfa'>): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const { challengeId } = c.req.valid('json');
    return c.json(ok(await d.mfa.steps.resendSms(challengeId)), 200);
  });
}
