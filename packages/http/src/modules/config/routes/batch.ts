/** `PUT /api/v1/sys/config/batch`: `[{key, value}]`, all validated before any is written, one transaction. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorIdOf } from '../../../security/principal.js';
import { assertConfigKeyWritable, type ConfigRouteDeps } from '../services.js';

/** Entries per batch: far more than the runtime keys, small enough for one short transaction. */
export const CONFIG_BATCH_MAX = 200;

export const ConfigBatchSchema = z
  .array(z.object({ key: z.string().min(1).max(128), value: z.string().max(4000) }).strict())
  .min(1)
  .max(CONFIG_BATCH_MAX);

export const route = createRoute({
  method: 'put',
  path: '/api/v1/sys/config/batch',
  tags: ['Config'],
  summary: 'Update config values in one batch',
  request: { body: { required: true, content: { 'application/json': { schema: ConfigBatchSchema } } } },
  responses: envelopeResponses(z.object({ updated: z.number().int() })),
});

export function register(ctx: RegisterContext, d: Pick<ConfigRouteDeps, 'configs'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true, module: 'Config' }, async (c) => {
    const entries = c.req.valid('json');
    for (const entry of entries) assertConfigKeyWritable(c, entry.key);
    const updated = await d.configs.updateBatch(entries, actorIdOf(c));
    return c.json(ok({ updated }), 200);
  });
}
