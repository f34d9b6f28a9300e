/** `GET /api/v1/sys/dict/items/{typeCode}` (bearer): enabled items of an enabled type, cached. */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { noNul } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { DictRouteDeps } from '../services.js';

export const DictOptionSchema = z
  .object({ label: z.string(), value: z.string(), sort: z.number().int() })
  .openapi('DictOption');

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/dict/items/{typeCode}',
  tags: ['Dict'],
  summary: 'Items of a dictionary',
  request: {
    params: z.object({
      typeCode: z
        .string()
        .min(1)
        .max(64)
        .refine(noNul, 'must not contain NUL')
        .openapi({ param: { name: 'typeCode', in: 'path' } }),
    }),
  },
  responses: envelopeResponses(z.array(DictOptionSchema)),
});

export function register(ctx: RegisterContext, d: Pick<DictRouteDeps, 'dicts'>): void {
  registerRoute(ctx, route, { auth: 'authenticated', module: 'Dict' }, async (c) => {
    return c.json(ok(await (await d.dicts).items(c.req.valid('param').typeCode)), 200);
  });
}
