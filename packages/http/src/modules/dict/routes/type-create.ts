/** `POST /api/v1/sys/dict/type`: a new type (43002 when the code exists). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses, IdSchema } from '../../../openapi/schemas.js';
import { actorIdOf } from '../../../security/principal.js';
import type { DictRouteDeps } from '../services.js';

export const DictTypeCreateSchema = z
  .object({
    code: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and . _ : - only'),
    name: z.string().trim().min(1).max(64),
    enabled: z.boolean().optional(),
    remark: z.string().max(500).nullable().optional(),
  })
  .strict();

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/dict/type',
  tags: ['Dict'],
  summary: 'Create a dictionary type',
  request: { body: { required: true, content: { 'application/json': { schema: DictTypeCreateSchema } } } },
  responses: envelopeResponses(IdSchema),
});

export function register(ctx: RegisterContext, d: Pick<DictRouteDeps, 'dicts'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Dict' }, async (c) => {
    const id = await (await d.dicts).createType(c.req.valid('json'), actorIdOf(c));
    return c.json(ok({ id }), 200);
  });
}
