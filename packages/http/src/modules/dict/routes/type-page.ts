/** `GET /api/v1/sys/dict/type/page`: dictionary types, filters `code`, `name` (contains). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { mapPage, pageQuerySchema, pageSchema, textParam } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { DictRouteDeps } from '../services.js';
import { DictTypeSchema, dictTypeDto } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/dict/type/page',
  tags: ['Dict'],
  summary: 'List dictionary types',
  request: { query: pageQuerySchema({ code: textParam.optional(), name: textParam.optional() }) },
  responses: envelopeResponses(pageSchema(DictTypeSchema)),
});

export function register(ctx: RegisterContext, d: Pick<DictRouteDeps, 'dicts'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Dict' }, async (c) => {
    const query = c.req.valid('query');
    return c.json(ok(mapPage(await (await d.dicts).pageTypes(query), dictTypeDto)), 200);
  });
}
