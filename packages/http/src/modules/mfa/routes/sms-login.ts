/** `POST /api/v1/auth/sms/login`: passwordless login with phone number and SMS code. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { clientInfoOf } from '../../../security/client.js';
import { loginOutput } from '../../../security/cookies.js';
import { LoginOutputSchema } from '../../auth/routes/schemas.js';
import type { MfaRouteDeps } from '../services.js';
import { CodeSchema, jsonBody, PhoneSchema } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/auth/sms/login',
  tags: ['Auth'],
  summary: 'Log in with phone number and SMS code',
  description:
    '40012 SMS login off; 40010 wrong code (`args.attemptsLeft`); 40011 for every dead code alike.',
  request: jsonBody(z.object({ phone: PhoneSchema, code: CodeSchema }).strict()),
  responses: envelopeResponses(LoginOutputSchema),
});

export function register(
  ctx: RegisterContext,
  d: Pick<MfaRouteDeps, 'mfa' | 'security' | 'resolveClientIp' | 'now'>,
): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const { phone, code } = c.req.valid('json');
    const client = clientInfoOf(c, d.resolveClientIp);
    const issued = await d.mfa.steps.smsLogin(phone, code, client);
    return c.json(ok(loginOutput(c, d.security, issued, d.now())), 200);
  });
}
