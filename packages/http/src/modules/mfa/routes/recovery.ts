/** `POST /api/v1/auth/mfa/recovery`: one recovery code clears the account's TOTP and revokes all its sessions. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { clientInfoOf } from '../../../security/client.js';
import type { MfaRouteDeps } from '../services.js';
import { AccountSchema, CodeSchema, captchaFields, jsonBody, PasswordSchema } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/auth/mfa/recovery',
  tags: ['Auth'],
  summary: 'Use a recovery code',
  description:
    '40022 used or unknown code (counts on the second-factor lock); 40025 TOTP off; 40001/40004/40005 and ' +
    'captcha (40002/40003, while on) as at login.',
  request: jsonBody(
    z
      .object({
        account: AccountSchema,
        currentPassword: PasswordSchema,
        recoveryCode: CodeSchema,
        ...captchaFields,
      })
      .strict(),
  ),
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: Pick<MfaRouteDeps, 'mfa' | 'resolveClientIp'>): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const { account, currentPassword, recoveryCode, captchaId, captchaCode } = c.req.valid('json');
    await d.mfa.binding.recover(account, currentPassword, recoveryCode, {
      captcha: { captchaId, captchaCode },
      client: clientInfoOf(c, d.resolveClientIp),
    });
    return c.json(ok(null), 200);
  });
}
