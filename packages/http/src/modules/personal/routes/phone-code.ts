/**
 * `POST /api/v1/personal/phone/code`: the current password (the shared lock-aware check; captcha while on)
 * sends a code to the NEW number (contract §10). The number changes only when `PUT /personal/phone` confirms it.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { clientInfoOf } from '../../../security/client.js';
import { requireUser } from '../../../security/principal.js';
import {
  captchaFields,
  jsonBody,
  PasswordSchema,
  PhoneSchema,
  SmsSendResultSchema,
} from '../../mfa/routes/schemas.js';
import type { PhoneRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/personal/phone/code',
  tags: ['Personal'],
  summary: 'Send a code to a new phone number',
  description:
    '40001/40004 wrong password (counts on the login lock); 40002/40003 captcha while on; 40008 cooldown or ' +
    'daily limit of the number.',
  request: jsonBody(
    z.object({ phone: PhoneSchema, currentPassword: PasswordSchema, ...captchaFields }).strict(),
  ),
  responses: envelopeResponses(SmsSendResultSchema),
});

export function register(ctx: RegisterContext, deps: PhoneRouteDeps): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    const sent = await deps.phone.sendCode(
      requireUser(c),
      c.req.valid('json'),
      clientInfoOf(c, deps.resolveClientIp),
    );
    return c.json(ok(sent), 200);
  });
}
