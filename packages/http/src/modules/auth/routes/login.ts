/** `POST /api/v1/auth/login`: password login (the login decision order lives in the auth service). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { clientInfoOf } from '../../../security/client.js';
import { loginOutput } from '../../../security/cookies.js';
import type { AuthRouteDeps } from '../services.js';
import { AccountSchema, LoginOutputSchema, PasswordSchema } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/auth/login',
  tags: ['Auth'],
  summary: 'Log in with account and password',
  description:
    'May answer 40009 (SMS step), 40018 (TOTP step) or 40020 (TOTP binding required) instead of a session.',
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({
            account: AccountSchema,
            password: PasswordSchema,
            captchaId: z.string().max(64).optional(),
            captchaCode: z.string().max(16).optional(),
          }),
        },
      },
    },
  },
  responses: envelopeResponses(LoginOutputSchema),
});

export function register(ctx: RegisterContext, { security, now }: AuthRouteDeps): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const body = c.req.valid('json');
    const issued = await security.auth.login({ ...body, client: clientInfoOf(c, security.resolveClientIp) });
    return c.json(ok(loginOutput(c, security, issued, now())), 200);
  });
}
