/** `GET /api/v1/sys/recycle/{type}/page`: soft-deleted rows of one type (42022 unknown type). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { jsonify } from '../../../admin/json.js';
import { type AdminRouteDeps, actorOf } from '../../../admin/route-deps.js';
import { pageOf, RecycleItemSchema } from '../../../admin/schemas.js';
import { pageQuerySchema } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { TypeParamSchema } from './params.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/recycle/{type}/page',
  tags: ['Recycle bin'],
  summary: 'Page of deleted rows',
  request: { params: TypeParamSchema, query: pageQuerySchema({}) },
  responses: envelopeResponses(pageOf(RecycleItemSchema)),
});

export function register(ctx: RegisterContext, deps: AdminRouteDeps): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'RecycleBin' }, async (c) => {
    const query = c.req.valid('query');
    const type = deps.admin.recycleBin.get(c.req.valid('param').type);
    return c.json(ok(jsonify(await type.page(actorOf(c, deps), query))), 200);
  });
}
