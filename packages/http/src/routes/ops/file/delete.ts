/**
 * `DELETE /api/v1/sys/file/{id}`: soft-deletes the row (44004 when absent or uploaded outside the caller's data
 * scope). The bytes stay, so a restore from the recycle bin gives the file back; a purge there removes them.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { BusinessError, ErrorCode, ok } from '@svc/kernel';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorOf, type OpsRouteDeps, scopeOf } from '../route-deps.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/file/{id}',
  tags: ['File'],
  summary: 'Delete a file',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(z.null()),
});

export function register(ctx: RegisterContext, d: OpsRouteDeps): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Upload' }, async (c) => {
    const { id } = c.req.valid('param');
    const row = await d.http.core.repos.files.getById(id, await scopeOf(c, d));
    if (!row || !(await d.http.core.repos.files.softDelete(id, { userId: actorOf(c), now: d.http.now() }))) {
      throw new BusinessError(ErrorCode.FileNotFound, { id });
    }
    return c.json(ok(null), 200);
  });
}
