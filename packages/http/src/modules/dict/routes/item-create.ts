/** `POST /api/v1/sys/dict/item`: a new item of a type (43001 when the type is absent). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses, IdSchema } from '../../../openapi/schemas.js';
import { actorIdOf } from '../../../security/principal.js';
import type { DictRouteDeps } from '../services.js';

export const DictItemCreateSchema = z
  .object({
    typeId: z.number().int().positive(),
    label: z.string().trim().min(1).max(128),
    value: z.string().max(128),
    sort: z.number().int().min(-1_000_000).max(1_000_000).optional(),
    enabled: z.boolean().optional(),
    remark: z.string().max(500).nullable().optional(),
  })
  .strict();

export const route = createRoute({
  method: 'post',
  path: '/api/v1/sys/dict/item',
  tags: ['Dict'],
  summary: 'Create a dictionary item',
  request: { body: { required: true, content: { 'application/json': { schema: DictItemCreateSchema } } } },
  responses: envelopeResponses(IdSchema),
});

export function register(ctx: RegisterContext, d: Pick<DictRouteDeps, 'dicts'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Dict' }, async (c) => {
    const id = await (await d.dicts).createItem(c.req.valid('json'), actorIdOf(c));
    return c.json(ok({ id }), 200);
  });
}
