/** `POST /api/v1/auth/mfa/bind/start`: account and current password → a seed, its otpauth URI and a bind challenge. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import type { HttpDeps } from '../../deps.js';
import { type RegisterContext, registerRoute } from '../../openapi/register.js';
import { envelopeResponses } from '../../openapi/schemas.js';
import { AccountSchema, jsonBody, PasswordSchema } from './schemas.js';

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
  description: '40025 TOTP off; 40001/40004/40005 as at login; 40021 when the account is already bound.',
  request: jsonBody(z.object({ account: AccountSchema, currentPassword: PasswordSchema }).strict()),
  responses: envelopeResponses(BindStartSchema),
});

export function register(ctx: RegisterContext, deps: HttpDeps): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const { account, currentPassword } = c.req.valid('json');
    return c.json(ok(await deps.core.mfa.binding.start(account, currentPassword)), 200);
  });
}
