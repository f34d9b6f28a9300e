/**
 * `GET /api/v1/sys/file/page`: uploaded files with their signed view links, filter `name` (contains); only
 * files uploaded by users within the caller's data scope.
 */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { mapPage, pageQuerySchema, pageSchema, textParam } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { type OpsRouteDeps, scopeOf } from '../route-deps.js';
import { FileRowSchema, fileDto } from '../schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/file/page',
  tags: ['File'],
  summary: 'List files',
  request: { query: pageQuerySchema({ name: textParam.optional() }) },
  responses: envelopeResponses(pageSchema(FileRowSchema)),
});

export function register(ctx: RegisterContext, d: OpsRouteDeps): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Upload' }, async (c) => {
    const query = c.req.valid('query');
    const page = await d.http.core.repos.files.page(query, await scopeOf(c, d));
    return c.json(ok(mapPage(page, (r) => fileDto(r, d.ops.links.viewUrl(r.id)))), 200);
  });
}
