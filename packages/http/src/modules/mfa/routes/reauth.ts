/**
 * `POST /api/v1/auth/reauth`: the password, a TOTP code or a passkey assertion (while module Passkey is on;
 * options from `POST /api/v1/auth/reauth/passkey/options`) opens the re-authentication window of this session.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { BusinessError, ErrorCode, ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { clientInfoOf } from '../../../security/client.js';
import { requireUser } from '../../../security/principal.js';
import { AuthenticationResponseSchema, PasskeyChallengeIdSchema } from '../../passkey/routes/schemas.js';
import type { MfaRouteDeps } from '../services.js';
import { CodeSchema, jsonBody, PasswordSchema } from './schemas.js';

const REQUIRED = {
  password: ['password'],
  totp: ['totpCode'],
  passkey: ['challengeId', 'response'],
} as const;

export const ReauthBody = z
  .object({
    method: z.enum(['password', 'totp', 'passkey']),
    password: PasswordSchema.optional(),
    totpCode: CodeSchema.optional(),
    challengeId: PasskeyChallengeIdSchema.optional(),
    response: AuthenticationResponseSchema.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    for (const field of REQUIRED[body.method])
      if (body[field] === undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: `Required for ${body.method}.` });
  });

export const route = createRoute({
  method: 'post',
  path: '/api/v1/auth/reauth',
  tags: ['Auth'],
  summary: 'Re-authenticate for high-risk operations',
  description:
    'Opens a window of `ReauthWindowMinutes` for this session. 40001/40004 wrong password; 40019 wrong code; passkey: 40035 assertion refused or not the caller’s, 40036 dead challenge, 40037 passkeys off (48000 while module Passkey is off).',
  request: jsonBody(ReauthBody),
  responses: envelopeResponses(z.object({ expiresAt: z.string().openapi({ format: 'date-time' }) })),
});

export function register(
  ctx: RegisterContext,
  d: Pick<MfaRouteDeps, 'mfa' | 'resolveClientIp' | 'passkeys'>,
): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    const body = c.req.valid('json');
    const principal = requireUser(c);
    const client = clientInfoOf(c, d.resolveClientIp);
    let expiresAt: Date;
    if (body.method === 'passkey') {
      if (!d.passkeys || !body.challengeId || !body.response)
        throw new BusinessError(ErrorCode.ParamInvalid, {
          errors: [{ path: 'method', message: 'Passkeys are not served (module Passkey is off).' }],
        });
      ({ expiresAt } = await d.passkeys.reauth(
        principal,
        { challengeId: body.challengeId, response: body.response },
        client,
      ));
    } else ({ expiresAt } = await d.mfa.reauth.open(principal, { ...body, method: body.method }, client));
    return c.json(ok({ expiresAt: expiresAt.toISOString() }), 200);
  });
}
