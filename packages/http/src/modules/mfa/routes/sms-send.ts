/**
 * `POST /api/v1/auth/sms/send`: sends an SMS login code. The answer and the cooldown are the same whether or
 * not the number belongs to exactly one enabled user; only then is a code actually sent.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { MfaRouteDeps } from '../services.js';
import { jsonBody, PhoneSchema, SmsSendResultSchema } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/auth/sms/send',
  tags: ['Auth'],
  summary: 'Send an SMS login code',
  description:
    'Captcha fields are required while the captcha is on. 40012 SMS login off; 40008 cooldown or daily limit.',
  request: jsonBody(
    z
      .object({
        phone: PhoneSchema,
        captchaId: z.string().max(64).optional(),
        captchaCode: z.string().max(16).optional(),
      })
      .strict(),
  ),
  responses: envelopeResponses(SmsSendResultSchema),
});

export function register(ctx: RegisterContext, d: Pick<MfaRouteDeps, 'mfa'>): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    return c.json(ok(await d.mfa.steps.sendLoginCode(c.req.valid('json'))), 200);
  });
}
