/** `POST /api/v1/auth/external/pending-link/claim`: binds an unlinked identity to the signed-in user. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { getCookie } from 'hono/cookie';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import { jsonBody } from '../../mfa/routes/schemas.js';
import type { ExternalAuthRouteDeps } from '../services.js';
import { BASE, PENDING_COOKIE } from './shared.js';

export const route = createRoute({
  method: 'post',
  path: `${BASE}/pending-link/claim`,
  tags: ['External login'],
  summary: 'Claim a pending external identity after a normal login',
  description:
    'Needs the pending-link cookie set by the callback (15 minutes, single use). 40032 unknown, expired, used or foreign; 40033 the identity is bound to another user. Needs re-authentication while second factors are on (40024), as `bind` does: a bound identity is a lasting way in.',
  request: jsonBody(z.object({ pendingLink: z.string().min(1).max(128) }).strict()),
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, { service }: Pick<ExternalAuthRouteDeps, 'service'>): void {
  registerRoute(ctx, route, { auth: 'authenticated', reauth: true }, async (c) => {
    const { pendingLink } = c.req.valid('json');
    await service.claimPending(pendingLink, getCookie(c, PENDING_COOKIE), requireUser(c).userId);
    return c.json(ok(null), 200);
  });
}
