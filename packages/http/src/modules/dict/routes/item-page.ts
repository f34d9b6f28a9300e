/** `GET /api/v1/sys/dict/item/page`: dictionary items, filters `typeCode` (exact), `label` (contains). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { mapPage, pageQuerySchema, pageSchema, textParam } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import type { DictRouteDeps } from '../services.js';
import { DictItemSchema, dictItemDto } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/dict/item/page',
  tags: ['Dict'],
  summary: 'List dictionary items',
  request: { query: pageQuerySchema({ typeCode: textParam.optional(), label: textParam.optional() }) },
  responses: envelopeResponses(pageSchema(DictItemSchema)),
});

export function register(ctx: RegisterContext, d: Pick<DictRouteDeps, 'dicts'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Dict' }, async (c) => {
    const query = c.req.valid('query');
    return c.json(ok(mapPage(await (await d.dicts).pageItems(query), dictItemDto)), 200);
  });
}
