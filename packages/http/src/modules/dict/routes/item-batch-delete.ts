/**
 * `POST /api/v1/sys/dict/item/batch-delete`: deletes several dictionary items; any unknown id refuses the
 * whole batch (43003 naming the ids), as the user batch delete does.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { IdListSchema } from '../../../admin/schemas.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorIdOf } from '../../../security/principal.js';
import type { DictRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/dict/item/batch-delete',
  tags: ['Dict'],
  summary: 'Delete several dictionary items',
  request: {
    body: {
      required: true,
      content: { 'application/json': { schema: z.object({ ids: IdListSchema.min(1) }).strict() } },
    },
  },
  responses: envelopeResponses(z.object({ deleted: z.number().int() })),
});

export function register(ctx: RegisterContext, d: Pick<DictRouteDeps, 'dicts'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Dict' }, async (c) => {
    const deleted = await (await d.dicts).deleteItems(c.req.valid('json').ids, actorIdOf(c));
    return c.json(ok({ deleted }), 200);
  });
}
