/** `GET /api/v1/sys/recycle/{type}/page`: soft-deleted rows of one type (42022 unknown type). */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { jsonify } from '../../../admin/json.js';
import { pageOf, RecycleItemSchema } from '../../../admin/schemas.js';
import { pageQuerySchema } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { requirePrincipal } from '../../../security/principal.js';
import type { RecycleBinRouteDeps } from '../services.js';
import { TypeParamSchema } from './params.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/recycle/{type}/page',
  tags: ['Recycle bin'],
  summary: 'Page of deleted rows',
  request: { params: TypeParamSchema, query: pageQuerySchema({}) },
  responses: envelopeResponses(pageOf(RecycleItemSchema)),
});

export function register(
  ctx: RegisterContext,
  deps: Pick<RecycleBinRouteDeps, 'recycleBin' | 'actorOf'>,
): void {
  registerRoute(ctx, route, { auth: 'permission' }, async (c) => {
    const query = c.req.valid('query');
    const type = deps.recycleBin.get(c.req.valid('param').type);
    return c.json(ok(jsonify(await type.page(deps.actorOf(requirePrincipal(c)), query))), 200);
  });
}
