/** `POST /api/v1/auth/external/{provider}/bind`: the authorization URL that binds another identity. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { ExternalAuthRouteDeps } from '../services.js';
import { BASE, ProviderParam, startFlow } from './shared.js';

export const route = createRoute({
  method: 'post',
  path: `${BASE}/{provider}/bind`,
  tags: ['External login'],
  summary: 'Start binding an external identity',
  description:
    'Answers `{authorizeUrl}` and sets the binder cookie; the callback then redirects with `?bind=<provider>` or `?error=` (40033 identity bound to another user; 40030 when the session that started the bind ended meanwhile). 40029 provider unknown or off (no cookie set then). Needs re-authentication while second factors are on (40024): a bound identity is a lasting way in.',
  request: { params: ProviderParam },
  responses: envelopeResponses(z.object({ authorizeUrl: z.string() }).openapi('ExternalAuthorizeUrl')),
});

export function register(
  ctx: RegisterContext,
  d: Pick<ExternalAuthRouteDeps, 'service' | 'secureCookies'>,
): void {
  registerRoute(ctx, route, { auth: 'authenticated', reauth: true }, async (c) => {
    const { provider } = c.req.valid('param');
    const { userId, sessionId } = requireUser(c);
    const url = await startFlow(c, d, { code: provider, bind: { userId, sessionId } });
    return c.json(ok({ authorizeUrl: url.href }), 200);
  });
}
