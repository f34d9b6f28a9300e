/** `PUT /api/v1/sys/user/{id}/enabled`: enable or disable; disabling ends every session of the user. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { IdParamSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/user/{id}/enabled',
  tags: ['Users'],
  summary: 'Enable or disable a user',
  request: {
    params: IdParamSchema,
    body: {
      required: true,
      content: { 'application/json': { schema: z.object({ enabled: z.boolean() }).strict() } },
    },
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    const { id } = c.req.valid('param');
    await deps.admin.users.setEnabled(actorOf(c, deps), id, c.req.valid('json').enabled);
    return c.json(ok(null), 200);
  });
}
