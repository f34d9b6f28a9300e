/** `POST /api/v1/auth/external/exchange`: turns a callback ticket into the login output. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { getCookie } from 'hono/cookie';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { clientInfoOf } from '../../../security/client.js';
import { loginOutput } from '../../../security/cookies.js';
import { LoginOutputSchema } from '../../auth/routes/schemas.js';
import { jsonBody } from '../../mfa/routes/schemas.js';
import type { ExternalAuthRouteDeps } from '../services.js';
import { BASE, BINDER_COOKIE } from './shared.js';

export const route = createRoute({
  method: 'post',
  path: `${BASE}/exchange`,
  tags: ['External login'],
  summary: 'Exchange a login ticket for a session',
  description:
    '40032 ticket unknown, expired (120 s), already used, or sent without the binder cookie of the browser that ran the flow (a ticket is spent by a foreign try); 40005 user disabled meanwhile.',
  request: jsonBody(z.object({ ticket: z.string().min(1).max(128) }).strict()),
  responses: envelopeResponses(LoginOutputSchema),
});

export function register(
  ctx: RegisterContext,
  { service, security, now }: Pick<ExternalAuthRouteDeps, 'service' | 'security' | 'now'>,
): void {
  registerRoute(ctx, route, { auth: 'anonymous' }, async (c) => {
    const { ticket } = c.req.valid('json');
    const binder = getCookie(c, BINDER_COOKIE);
    const issued = await service.exchange(ticket, binder, clientInfoOf(c, security.resolveClientIp));
    return c.json(ok(loginOutput(c, security, issued, now())), 200);
  });
}
