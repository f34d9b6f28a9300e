/** `POST /api/v1/sys/mfa/high-sensitivity`: records a permission route of this service as high-sensitivity. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requireUser } from '../../../security/principal.js';
import type { MfaRouteDeps } from '../services.js';
import { jsonBody } from './schemas.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/mfa/high-sensitivity',
  tags: ['MFA'],
  summary: 'Add a high-sensitivity permission code',
  description: '48000 for a code that is not a permission route of this service or is already built in.',
  request: jsonBody(
    z.object({ permissionCode: z.string().min(3).max(200), remark: z.string().max(500).optional() }).strict(),
  ),
  responses: envelopeResponses(z.object({ id: z.number().int() })),
});

export function register(ctx: RegisterContext, d: Pick<MfaRouteDeps, 'mfa'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    const added = await d.mfa.highSensitivity.add(c.req.valid('json'), requireUser(c).userId);
    return c.json(ok(added), 200);
  });
}
