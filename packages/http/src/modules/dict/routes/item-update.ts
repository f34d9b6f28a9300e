/** `PUT /api/v1/sys/dict/item/{id}`: label, value, sort, enabled, remark (43003 when absent). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorIdOf } from '../../../security/principal.js';
import type { DictRouteDeps } from '../services.js';

export const DictItemUpdateSchema = z
  .object({
    label: z.string().trim().min(1).max(128).optional(),
    value: z.string().max(128).optional(),
    sort: z.number().int().min(-1_000_000).max(1_000_000).optional(),
    enabled: z.boolean().optional(),
    remark: z.string().max(500).nullable().optional(),
  })
  .strict();

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/dict/item/{id}',
  tags: ['Dict'],
  summary: 'Update a dictionary item',
  request: {
    params: z.object({ id: idPath }),
    body: { required: true, content: { 'application/json': { schema: DictItemUpdateSchema } } },
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: Pick<DictRouteDeps, 'dicts'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Dict' }, async (c) => {
    const body = c.req.valid('json');
    const patch = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    await (await d.dicts).updateItem(c.req.valid('param').id, patch, actorIdOf(c));
    return c.json(ok(null), 200);
  });
}
