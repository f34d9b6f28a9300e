/** `DELETE /api/v1/sys/mfa/high-sensitivity/{id}`: removes an added code (built-in ones have no id). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { MfaRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/mfa/high-sensitivity/{id}',
  tags: ['MFA'],
  summary: 'Delete an added high-sensitivity permission code',
  description: '48003 when no added item has this id.',
  request: {
    params: z.object({
      id: z.coerce
        .number()
        .int()
        .positive()
        .openapi({ param: { name: 'id', in: 'path' } }),
    }),
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: Pick<MfaRouteDeps, 'mfa'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    await d.mfa.highSensitivity.remove(c.req.valid('param').id);
    return c.json(ok(null), 200);
  });
}
