/** `POST /api/v1/sys/config`: a new key (43005 when it exists; the value is checked against its type). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses, IdSchema } from '../../../openapi/schemas.js';
import { actorIdOf } from '../../../security/principal.js';
import { assertConfigKeyWritable, type ConfigRouteDeps } from '../services.js';

export const ConfigCreateSchema = z
  .object({
    key: z
      .string()
      .trim()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and . _ : - only'),
    value: z.string().max(4000),
    name: z.string().trim().min(1).max(128),
    valueType: z.enum(['string', 'int', 'bool', 'enum']).optional(),
    remark: z.string().max(500).nullable().optional(),
  })
  .strict();

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/config',
  tags: ['Config'],
  summary: 'Create a config entry',
  request: { body: { required: true, content: { 'application/json': { schema: ConfigCreateSchema } } } },
  responses: envelopeResponses(IdSchema),
});

export function register(ctx: RegisterContext, d: Pick<ConfigRouteDeps, 'configs'>): void {
  registerRoute(ctx, route, { auth: 'permission', reauth: true, module: 'Config' }, async (c) => {
    const body = c.req.valid('json');
    assertConfigKeyWritable(c, body.key);
    const id = await d.configs.create(body, actorIdOf(c));
    return c.json(ok({ id }), 200);
  });
}
