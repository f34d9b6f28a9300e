/** `GET /api/v1/sys/dict/type/{id}`: one dictionary type (43001 when absent). */
import { createRoute, z } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { DictRouteDeps } from '../services.js';
import { DictTypeSchema, dictTypeDto } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/dict/type/{id}',
  tags: ['Dict'],
  summary: 'Get a dictionary type',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(DictTypeSchema),
});

export function register(ctx: RegisterContext, d: Pick<DictRouteDeps, 'dicts'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Dict' }, async (c) => {
    return c.json(ok(dictTypeDto(await (await d.dicts).getType(c.req.valid('param').id))), 200);
  });
}
