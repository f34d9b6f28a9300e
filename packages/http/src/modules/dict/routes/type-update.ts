/** `PUT /api/v1/sys/dict/type/{id}`: name, enabled, remark (the code is the type's identity and stays). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorIdOf } from '../../../security/principal.js';
import type { DictRouteDeps } from '../services.js';

export const DictTypeUpdateSchema = z
  .object({
    name: z.string().trim().min(1).max(64).optional(),
    enabled: z.boolean().optional(),
    remark: z.string().max(500).nullable().optional(),
  })
  .strict();

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/dict/type/{id}',
  tags: ['Dict'],
  summary: 'Update a dictionary type',
  request: {
    params: z.object({ id: idPath }),
    body: { required: true, content: { 'application/json': { schema: DictTypeUpdateSchema } } },
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: Pick<DictRouteDeps, 'dicts'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Dict' }, async (c) => {
    const body = c.req.valid('json');
    await (await d.dicts).updateType(
      c.req.valid('param').id,
      {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
        ...(body.remark !== undefined ? { remark: body.remark } : {}),
      },
      actorIdOf(c),
    );
    return c.json(ok(null), 200);
  });
}
