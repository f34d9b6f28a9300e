/**
 * `DELETE /api/v1/sys/config/{id}`: moves a consumer key to the recycle bin (43006 for a key the service reads).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorIdOf } from '../../../security/principal.js';
import type { ConfigRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/config/{id}',
  tags: ['Config'],
  summary: 'Delete a config entry',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: Pick<ConfigRouteDeps, 'configs'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true, module: 'Config' }, async (c) => {
    await d.configs.delete(c.req.valid('param').id, actorIdOf(c));
    return c.json(ok(null), 200);
  });
}
