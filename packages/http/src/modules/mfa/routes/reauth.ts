/** `POST /api/v1/auth/reauth`: password or TOTP code opens the re-authentication window of this session. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { clientInfoOf } from '../../../security/client.js';
import { requireUser } from '../../../security/principal.js';
import type { MfaRouteDeps } from '../services.js';
import { CodeSchema, jsonBody, PasswordSchema } from './schemas.js';

export const ReauthBody = z
  .object({
    method: z.enum(['password', 'totp']),
    password: PasswordSchema.optional(),
    totpCode: CodeSchema.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    const field = body.method === 'password' ? 'password' : 'totpCode';
    if (body[field] === undefined)
      ctx.addIssue({ code: 'custom', path: [field], message: `Required for ${body.method}.` });
  });

export const route = createRoute({
  method: 'post',
  path: '/api/v1/auth/reauth',
  tags: ['Auth'],
  summary: 'Re-authenticate for high-risk operations',
  description:
    'Opens a window of `ReauthWindowMinutes` for this session. 40001/40004 wrong password; 40019 wrong code.',
  request: jsonBody(ReauthBody),
  responses: envelopeResponses(z.object({ expiresAt: z.string().openapi({ format: 'date-time' }) })),
});

export function register(ctx: RegisterContext, d: Pick<MfaRouteDeps, 'mfa' | 'resolveClientIp'>): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    const { expiresAt } = await d.mfa.reauth.open(
      requireUser(c),
      c.req.valid('json'),
      clientInfoOf(c, d.resolveClientIp),
    );
    return c.json(ok({ expiresAt: expiresAt.toISOString() }), 200);
  });
}
