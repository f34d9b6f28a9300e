/** `POST /api/v1/sys/role/batch-delete`: soft-deletes several roles; any unknown id refuses the whole batch. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { IdListSchema } from '../../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../../openapi/register.js';
import { envelopeResponses } from '../../../../openapi/schemas.js';
import type { AdminRouteDeps } from '../../services.js';
import { actorOf } from '../actor.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/role/batch-delete',
  tags: ['Roles'],
  summary: 'Delete several roles',
  request: {
    body: {
      required: true,
      content: { 'application/json': { schema: z.object({ ids: IdListSchema.min(1) }).strict() } },
    },
  },
  responses: envelopeResponses(z.object({ deleted: z.number().int() })),
});

export function register(ctx: RegisterContext, deps: Pick<AdminRouteDeps, 'admin'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true }, async (c) => {
    const deleted = await deps.admin.roles.removeMany(actorOf(c, deps), c.req.valid('json').ids);
    return c.json(ok({ deleted }), 200);
  });
}
