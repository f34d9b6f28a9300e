/** `PUT /api/v1/sys/config/{id}`: value, name, remark; the key cannot change (48000 on `key`). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorIdOf } from '../../../security/principal.js';
import { assertConfigKeyWritable, type ConfigRouteDeps } from '../services.js';

export const ConfigUpdateSchema = z
  .object({
    key: z.string().max(128).optional().openapi({ description: 'May be sent, must equal the stored key.' }),
    value: z.string().max(4000).optional(),
    name: z.string().trim().min(1).max(128).optional(),
    remark: z.string().max(500).nullable().optional(),
  })
  .strict();

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/config/{id}',
  tags: ['Config'],
  summary: 'Update a config entry',
  request: {
    params: z.object({ id: idPath }),
    body: { required: true, content: { 'application/json': { schema: ConfigUpdateSchema } } },
  },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: Pick<ConfigRouteDeps, 'configs'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true, module: 'Config' }, async (c) => {
    const id = c.req.valid('param').id;
    assertConfigKeyWritable(c, (await d.configs.get(id)).configKey);
    await d.configs.update(id, c.req.valid('json'), actorIdOf(c));
    return c.json(ok(null), 200);
  });
}
