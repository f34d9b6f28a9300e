/** `DELETE /api/v1/personal/phone`: the current password removes the caller's phone (contract §10). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { clientInfoOf } from '../../../security/client.js';
import { requireUser } from '../../../security/principal.js';
import { jsonBody, PasswordSchema } from '../../mfa/routes/schemas.js';
import type { PhoneRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/personal/phone',
  tags: ['Personal'],
  summary: 'Remove my phone number',
  description: '40001/40004 wrong password (counts on the login lock).',
  request: jsonBody(z.object({ currentPassword: PasswordSchema }).strict()),
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: PhoneRouteDeps): void {
  registerRoute(ctx, route, { auth: 'authenticated' }, async (c) => {
    await deps.phone.remove(requireUser(c), c.req.valid('json'), clientInfoOf(c, deps.resolveClientIp));
    return c.json(ok(null), 200);
  });
}
