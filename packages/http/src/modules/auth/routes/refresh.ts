/**
 * `POST /api/v1/auth/refresh`: rotates the refresh token. In cookie mode, and for a cookie session on any host,
 * the token comes from the `app_rt` cookie when the body has none, the request must be same-site with single
 * session cookies, and the CSRF header must match the cookie and the token's session (403, 40023, written to
 * the login log); the rotated token goes back into the cookie.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { BusinessError, ErrorCode, ok } from '@svc/kernel';
import { CSRF_HEADER_NAME, verifyCsrf } from '@svc/security';
import { readHeader } from '../../../context.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { clientInfoOf } from '../../../security/client.js';
import { requestIsCrossSite, sessionCookiesOf } from '../../../security/cookie-guard.js';
import { loginOutput } from '../../../security/cookies.js';
import type { AuthRouteDeps } from '../services.js';
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

export function register(ctx: RegisterContext, { security, now }: AuthRouteDeps): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const body = c.req.valid('json') ?? {};
    let token = body.refreshToken ?? '';
    const client = clientInfoOf(c, security.resolveClientIp);
    const cookies = sessionCookiesOf(c);
    // A refresh the cookie authorises (cookie mode, or a body without a token beside an `app_rt` cookie, doubled
    // ones included) passes the cookie checks: the browser sends that cookie by itself, so the request has to
    // show it comes from our own page. A token in the body outside cookie mode authorises itself.
    const fromCookie =
      security.cookies.enabled || (token === '' && (cookies.refresh !== undefined || cookies.duplicated));
    if (fromCookie) {
      if (token === '') token = cookies.refresh ?? '';
      // The token's session (the CSRF value is bound to it) and account (the login-log row of a refusal).
      const owner = token === '' ? undefined : await security.auth.ownerOfRefreshToken(token);
      const refused = async () => {
        await security.securityEvents.record({
          account: owner?.account ?? '',
          userId: owner?.userId ?? null,
          resultCode: ErrorCode.CsrfInvalid.code,
          client,
        });
        return new BusinessError(ErrorCode.CsrfInvalid);
      };
      if (cookies.duplicated || requestIsCrossSite(c, security.cookies.allowedOrigins)) throw await refused();
      const csrf = {
        header: readHeader(c, CSRF_HEADER_NAME),
        cookie: cookies.csrf,
        sessionId: owner?.sessionId ?? '',
        key: security.csrfKey,
      };
      if (owner !== undefined && !verifyCsrf(csrf)) throw await refused();
    }
    if (token === '') throw new BusinessError(ErrorCode.RefreshTokenInvalid);
    const issued = await security.auth.refresh(token, client);
    return c.json(ok(loginOutput(c, security, issued, now(), fromCookie)), 200);
  });
}
