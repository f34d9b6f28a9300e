/** `POST /api/v1/auth/mfa/bind/start`: account and current password → a seed, its otpauth URI and a bind challenge. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { clientInfoOf } from '../../../security/client.js';
import type { MfaRouteDeps } from '../services.js';
import { AccountSchema, captchaFields, jsonBody, PasswordSchema } from './schemas.js';

export const BindStartSchema = z
  .object({
    bindChallengeId: z.string(),
    otpauthUri: z.string().openapi({ description: '`otpauth://totp/...` for a QR code.' }),
    seed: z.string().openapi({ description: 'Base32 seed for manual entry; shown once.' }),
    expiresSeconds: z.number().int(),
  })
  .openapi('TotpBindStart');

export const route = createRoute({
  method: 'post',
  path: '/api/v1/auth/mfa/bind/start',
  tags: ['Auth'],
  summary: 'Start binding an authenticator',
  description:
    '40025 TOTP off; 40001/40004/40005 and captcha (40002/40003, while on) as at login; 40021 when the ' +
    'account is already bound.',
  request: jsonBody(
    z.object({ account: AccountSchema, currentPassword: PasswordSchema, ...captchaFields }).strict(),
  ),
  responses: envelopeResponses(BindStartSchema),
});

export function register(ctx: RegisterContext, d: Pick<MfaRouteDeps, 'mfa' | 'resolveClientIp'>): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const { account, currentPassword, captchaId, captchaCode } = c.req.valid('json');
    const started = await d.mfa.binding.start(account, currentPassword, {
      captcha: { captchaId, captchaCode },
      client: clientInfoOf(c, d.resolveClientIp),
    });
    return c.json(ok(started), 200);
  });
}
