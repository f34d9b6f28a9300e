/**
 * `GET /api/v1/sys/file/page`: uploaded files with their signed view links, filter `name` (contains); only
 * files uploaded by users within the caller's data scope.
 */
import { createRoute } from '@hono/zod-openapi';
import { ok } from '@svc/kernel';
import { mapPage, pageQuerySchema, pageSchema, textParam } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { scopeOf } from '../../../security/principal.js';
import type { UploadRouteDeps } from '../services.js';
import { FileRowSchema, fileDto } from './schemas.js';

export const route = createRoute({
  method: 'get',
  path: '/api/v1/sys/file/page',
  tags: ['File'],
  summary: 'List files',
  request: { query: pageQuerySchema({ name: textParam.optional() }) },
  responses: envelopeResponses(pageSchema(FileRowSchema)),
});

export function register(
  ctx: RegisterContext,
  d: Pick<UploadRouteDeps, 'fileRows' | 'links' | 'scopes'>,
): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Upload' }, async (c) => {
    const query = c.req.valid('query');
    const page = await d.fileRows.page(query, await scopeOf(c, d.scopes));
    return c.json(ok(mapPage(page, (r) => fileDto(r, d.links.viewUrl(r.id)))), 200);
  });
}
