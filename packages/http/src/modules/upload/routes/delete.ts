/**
 * `DELETE /api/v1/sys/file/{id}`: soft-deletes the row (44004 when absent or uploaded outside the caller's data
 * scope). The bytes stay, so a restore from the recycle bin gives the file back; a purge there removes them.
 */

import { createRoute, z } from '@hono/zod-openapi';
import { BusinessError, ok } from '@svc/kernel';
import { UploadErrorCode } from '@svc/modules';
import { idPath } from '../../../openapi/query.js';
import { type RegisterContext, registerRoute } from '../../../openapi/register.js';
import { envelopeResponses } from '../../../openapi/schemas.js';
import { actorIdOf, scopeOf } from '../../../security/principal.js';
import type { UploadRouteDeps } from '../services.js';

export const route = createRoute({
  method: 'delete',
  path: '/api/v1/sys/file/{id}',
  tags: ['File'],
  summary: 'Delete a file',
  request: { params: z.object({ id: idPath }) },
  responses: envelopeResponses(z.null()),
});

export function register(
  ctx: RegisterContext,
  d: Pick<UploadRouteDeps, 'fileRows' | 'now' | 'scopes'>,
): void {
  registerRoute(ctx, route, { auth: 'permission', module: 'Upload' }, async (c) => {
    const { id } = c.req.valid('param');
    const row = await d.fileRows.getById(id, await scopeOf(c, d.scopes));
    if (!row || !(await d.fileRows.softDelete(id, { userId: actorIdOf(c), now: d.now() }))) {
      throw new BusinessError(UploadErrorCode.FileNotFound, { id });
    }
    return c.json(ok(null), 200);
  });
}
