/**
 * `POST /api/v1/auth/refresh`: rotates the refresh token. In cookie mode the token comes from the `app_rt`
 * cookie when the body has none, and the CSRF header must match the cookie and the token's session.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { BusinessError, ErrorCode, ok } from '@svc/kernel';
import { CSRF_COOKIE_NAME, CSRF_HEADER_NAME, REFRESH_COOKIE_NAME, verifyCsrf } from '@svc/security';
import { getCookie } from 'hono/cookie';
import { readHeader } from '../../context.js';
import { type RegisterContext, registerRoute } from '../../openapi/register.js';
import { envelopeResponses } from '../../openapi/schemas.js';
import { clientInfoOf } from '../../security/client.js';
import { loginOutput } from '../../security/cookies.js';
import type { HttpSecurity } from '../../security/deps.js';
import { LoginOutputSchema } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/auth/refresh',
  tags: ['Auth'],
  summary: 'Rotate the refresh token',
  request: {
    body: {
      required: false,
      content: { 'application/json': { schema: z.object({ refreshToken: z.string().max(512).optional() }) } },
    },
  },
  responses: envelopeResponses(LoginOutputSchema),
});

export function register(ctx: RegisterContext, security: HttpSecurity, now: () => Date): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const body = c.req.valid('json') ?? {};
    let token = body.refreshToken ?? '';
    if (security.cookies.enabled) {
      if (token === '') token = getCookie(c, REFRESH_COOKIE_NAME) ?? '';
      const sessionId = token === '' ? undefined : await security.auth.sessionOfRefreshToken(token);
      const csrf = {
        header: readHeader(c, CSRF_HEADER_NAME),
        cookie: getCookie(c, CSRF_COOKIE_NAME),
        sessionId: sessionId ?? '',
        key: security.csrfKey,
      };
      if (sessionId !== undefined && !verifyCsrf(csrf)) throw new BusinessError(ErrorCode.CsrfInvalid);
    }
    if (token === '') throw new BusinessError(ErrorCode.RefreshTokenInvalid);
    const issued = await security.auth.refresh(token, clientInfoOf(c, security.resolveClientIp));
    return c.json(ok(loginOutput(c, security, issued, now())), 200);
  });
}
