/** `GET /api/v1/auth/external/{provider}/authorize`: starts a login at the provider (browser navigation). */
import { createRoute } from '@hono/zod-openapi';
import { isBusinessError } from '@svc/kernel';
import { ExternalAuthErrorCode } from '@svc/modules';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import type { ExternalAuthRouteDeps } from '../services.js';
import { BASE, ProviderParam, redirectResponses, resultLocation, startFlow } from './shared.js';

export const route = createRoute({
  method: 'get',
  path: `${BASE}/{provider}/authorize`,
  tags: ['External login'],
  summary: 'Start a login at an external provider',
  description:
    '302 to the provider with state, nonce and PKCE challenge (cached 5 minutes, bound to this browser by an HttpOnly cookie); 302 to the frontend result path with `?error=40029` when the provider is unknown or off, `?error=40031` when it cannot be reached (both without setting a cookie).',
  request: { params: ProviderParam },
  responses: redirectResponses,
});

export function register(
  ctx: RegisterContext,
  d: Pick<ExternalAuthRouteDeps, 'service' | 'secureCookies' | 'resultPath'>,
): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const { provider } = c.req.valid('param');
    try {
      const url = await startFlow(c, d, { code: provider });
      return c.redirect(url.href, 302);
    } catch (error) {
      if (!isBusinessError(error)) throw error;
      return c.redirect(
        resultLocation(d, { error: String(error.code || ExternalAuthErrorCode.ExternalLoginFailed.code) }),
        302,
      );
    }
  });
}
