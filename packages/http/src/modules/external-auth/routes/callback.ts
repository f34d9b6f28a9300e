/** `GET /api/v1/auth/external/{provider}/callback`: where the provider sends the browser back. */
import { createRoute } from '@hono/zod-openapi';
import { TICKET_TTL_MS } from '@svc/modules';
import { getCookie } from 'hono/cookie';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { clientInfoOf } from '../../../security/client.js';
import type { ExternalAuthRouteDeps } from '../services.js';
import {
  BASE,
  BINDER_COOKIE,
  ProviderParam,
  redirectResponses,
  requestOrigin,
  resultLocation,
  setBinderCookie,
  setPendingCookie,
} from './shared.js';

export const route = createRoute({
  method: 'get',
  path: `${BASE}/{provider}/callback`,
  tags: ['External login'],
  summary: 'Provider callback',
  description:
    'Checks the state against the binder cookie (single use), exchanges the code and validates the ID token, then 302 to the frontend result path with `?ticket=` (login; `POST /exchange`), `?bind=` (identity bound), `?pendingLink=&provider=&displayName=` (identity not linked), `?totpChallenge=&error=40018` (TOTP step), `?smsChallenge=&phoneMask=&error=40009` (SMS step) or `?error=<code>`: 40029 provider off, 40030 state missing/replayed/foreign, 40031 provider error or token refused (nonce, issuer, signature), 40033 identity bound to another user, 40005 user disabled.',
  request: { params: ProviderParam },
  responses: redirectResponses,
});

export function register(
  ctx: RegisterContext,
  d: Pick<ExternalAuthRouteDeps, 'service' | 'security' | 'secureCookies' | 'resultPath'>,
): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const { provider } = c.req.valid('param');
    const binder = getCookie(c, BINDER_COOKIE);
    const { outcome, pendingBinder } = await d.service.callback({
      code: provider,
      query: new URL(c.req.url).searchParams,
      binder,
      requestOrigin: requestOrigin(c),
      client: clientInfoOf(c, d.security.resolveClientIp),
    });
    if (pendingBinder) setPendingCookie(c, d, pendingBinder);
    // The ticket is exchanged with this browser's binder: a flow finished near its end must not lose the cookie
    // before the ticket (the service accepted this binder, so it is well-formed).
    if (outcome.ticket && binder) setBinderCookie(c, d, binder, TICKET_TTL_MS);
    return c.redirect(resultLocation(d, outcome), 302);
  });
}
