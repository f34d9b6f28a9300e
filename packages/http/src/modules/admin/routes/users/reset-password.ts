/**
 * `PUT /api/v1/sys/user/{id}/password`: admin reset. Answers the new password once, forces a change at next
 * login, records history and ends the user's other sessions.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { IdParamSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/user/{id}/password',
  tags: ['Users'],
  summary: 'Reset a user’s password',
  request: { params: IdParamSchema },
  responses: envelopeResponses(z.object({ password: z.string() })),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    const answer = await deps.admin.users.resetPassword(actorOf(c, deps), c.req.valid('param').id);
    return c.json(ok(answer), 200);
  });
}
