/** `DELETE /api/v1/sys/dict/item/{id}` (43003 when absent). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorIdOf } from '../../../security/principal.js';
import type { DictRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/dict/item/{id}',
  tags: ['Dict'],
  summary: 'Delete a dictionary item',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: Pick<DictRouteDeps, 'dicts'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Dict' }, async (c) => {
    await (await d.dicts).deleteItem(c.req.valid('param').id, actorIdOf(c));
    return c.json(ok(null), 200);
  });
}
