/**
 * `GET /api/v1/sys/log/op/page`: the operation log, newest first; only rows of operators within the caller's
 * data scope (rows with no operator: an All scope only).
 */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { boolParam, mapPage, pageQuerySchema, pageSchema } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { scopeOf } from '../../../security/principal.js';
import type { LogRouteDeps } from '../services.js';
import { OpLogSchema, opLogDto } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/log/op/page',
  tags: ['Log'],
  summary: 'List operation logs',
  request: { query: pageQuerySchema({ success: boolParam.optional() }) },
  responses: envelopeResponses(pageSchema(OpLogSchema)),
});

export function register(ctx: RegisterContext, d: Pick<LogRouteDeps, 'opLogs' | 'scopes'>): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Log' }, async (c) => {
    const query = c.req.valid('query');
    const page = await d.opLogs.page(query, await scopeOf(c, d.scopes));
    return c.json(ok(mapPage(page, opLogDto)), 200);
  });
}
